// The bottom of the server: parts (a subsystem's state kept in the Server
// or a Namespace without the state layer knowing its type) and the ordered
// hooks subsystems subscribe to (engine/subsystems.cc).
#include "common/runtime/progress_engine.h"
#include "server/engine/subsystems.h"
#include "server/state/hooks.h"
#include "server/state/parts.h"
#include "server/state/server.h"

#include <criterion/criterion.h>

#include <string>
#include <vector>

using namespace pmixpp::server;

namespace {

std::vector<std::string> g_events;

struct Owner {
    int id = 7;
};

struct Plain {
    int value = 1;
    ~Plain() { g_events.push_back("plain gone"); }
};

struct Owned {
    explicit Owned(Owner &owner) : owner_id(owner.id) {}
    ~Owned() { g_events.push_back("owned gone"); }
    int owner_id;
};

}  // namespace

Test(parts, made_on_first_use_then_the_same_object)
{
    Owner owner;
    Parts<Owner> parts;
    cr_assert_null(parts.find<Plain>());
    Plain &first = parts.get<Plain>(owner);
    first.value = 42;
    cr_assert_eq(&parts.get<Plain>(owner), &first);
    cr_assert_eq(parts.find<Plain>(), &first);
    cr_assert_eq(parts.get<Plain>(owner).value, 42);
}

Test(parts, constructed_with_their_owner_when_they_take_one)
{
    Owner owner;
    owner.id = 99;
    Parts<Owner> parts;
    cr_assert_eq(parts.get<Owned>(owner).owner_id, 99);
}

Test(parts, destroyed_newest_first)
{
    g_events.clear();
    {
        Owner owner;
        Parts<Owner> parts;
        (void)parts.get<Plain>(owner);
        (void)parts.get<Owned>(owner);
    }
    cr_assert_eq(g_events.size(), 2u);
    cr_assert_str_eq(g_events[0].c_str(), "owned gone");
    cr_assert_str_eq(g_events[1].c_str(), "plain gone");
}

Test(parts, each_owner_has_its_own)
{
    Owner a;
    Owner b;
    Parts<Owner> parts_a;
    Parts<Owner> parts_b;
    parts_a.get<Plain>(a).value = 5;
    cr_assert_eq(parts_b.get<Plain>(b).value, 1);
    cr_assert_eq(parts_a.get<Plain>(a).value, 5);
}

namespace {

std::vector<std::string> g_ran;

}  // namespace

Test(hooks, run_in_the_order_they_were_added)
{
    g_ran.clear();
    Hooks hooks;
    hooks.on_finalize_connected("first", [](Server &) { g_ran.push_back("first"); });
    hooks.on_finalize_connected("second", [](Server &) { g_ran.push_back("second"); });
    hooks.on_finalize_disconnected("third", [](Server &) { g_ran.push_back("third"); });
    auto &engine = pmixpp::runtime::ProgressEngine::process();
    Server server(engine);
    hooks.finalize_connected(server);
    hooks.finalize_disconnected(server);
    cr_assert_eq(g_ran.size(), 3u);
    cr_assert_str_eq(g_ran[0].c_str(), "first");
    cr_assert_str_eq(g_ran[1].c_str(), "second");
    cr_assert_str_eq(g_ran[2].c_str(), "third");
}

Test(hooks, a_failing_start_hook_stops_the_rest)
{
    g_ran.clear();
    Hooks hooks;
    hooks.on_start("refuses", [](Server &, const pmix_info_t *, std::size_t) {
        g_ran.push_back("refuses");
        return PMIX_ERR_BAD_PARAM;
    });
    hooks.on_start("never", [](Server &, const pmix_info_t *, std::size_t) {
        g_ran.push_back("never");
        return PMIX_SUCCESS;
    });
    auto &engine = pmixpp::runtime::ProgressEngine::process();
    Server server(engine);
    cr_assert_eq(hooks.start(server, nullptr, 0), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(g_ran.size(), 1u);
}

// The order engine/subsystems.cc states is the order that runs: the arena
// hands its fences to the server before the fences hear of a lost peer,
// collectives fail while peers are connected, directories go last.
Test(hooks, the_subsystem_table_keeps_its_stated_order)
{
    Hooks hooks;
    subscribe_subsystems(hooks);
    const std::vector<std::string> table = hooks.describe();
    auto line = [&](const char *point) {
        for (const auto &entry : table) {
            if (entry.rfind(point, 0) == 0) return entry;
        }
        return std::string();
    };
    const std::string lost = line("peer lost:");
    cr_assert(lost.find("fence arena") < lost.find("fences"), "%s", lost.c_str());
    cr_assert(lost.find("cleanup") < lost.find("fences"), "%s", lost.c_str());
    // The job's data is shared ahead of its clients after the hooks that add
    // to it (the directories' names).
    const std::string client = line("client registered:");
    cr_assert(client.find("session directories") < client.find("job data"), "%s", client.c_str());
    const std::string job = line("namespace registered:");
    cr_assert(job.rfind("job data") == job.size() - std::string("job data").size(), "%s", job.c_str());
    const std::string gone = line("namespace deregistered:");
    cr_assert(gone.find("cleanup") < gone.find("session directories"), "%s", gone.c_str());
    const std::string connected = line("finalize, peers connected:");
    cr_assert(connected.find("fences") != std::string::npos, "%s", connected.c_str());
    cr_assert(connected.find("rendezvous files") != std::string::npos, "%s", connected.c_str());
    const std::string last = line("finalize, peers gone:");
    cr_assert(last.size() > std::string("finalize, peers gone: session directories").size() - 1);
    cr_assert(last.rfind("session directories") == last.size() - std::string("session directories").size(), "%s",
              last.c_str());
}
