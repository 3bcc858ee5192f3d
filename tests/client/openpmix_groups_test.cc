// Our client's groups, invitations and credentials on a link to a scripted
// OpenPMIx server (src/client/openpmix/group_requests.cc, invite_and_join.cc,
// security_requests.cc): the
// bytes of each request as OpenPMIx's server reads them, its answers as
// our callers see them, and answers that do not read.
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <cstring>
#include <string>
#include <vector>

#include <pmix.h>

#include "common/openpmix/bfrops.h"
#include "common/openpmix/commands.h"
#include "common/openpmix/frame.h"
#include "common/wire/messages.h"
#include "openpmix_fake_server.h"

namespace {

using namespace pmixpp;
using namespace pmixpp::testing;
using openpmix::Command;
using openpmix::Reader;
using openpmix::Writer;

constexpr size_t kContextId = 17;

pmix_proc_t rank_of(pmix_rank_t rank)
{
    pmix_proc_t proc{};
    PMIX_LOAD_PROCID(&proc, kJob, rank);
    return proc;
}

// What the fake server read of a group construct: [cmd][grp][nprocs][procs][ninfo][infos].
struct ConstructSeen {
    bool read = false;
    std::string group;
    std::vector<pmix_proc_t> procs;
    std::vector<std::string> keys;
};

// Reads the command byte; the rest is the caller's.
Reader after_command(const Message &m)
{
    Reader reader(kV41, m.body);
    uint8_t command = 0;
    int32_t n = 1;
    (void)reader.unpack(PMIX_UINT8, &command, &n);
    return reader;
}

bool read_infos(Reader &reader, std::vector<std::string> *keys_p, wire::InfoArray *infos_p = nullptr)
{
    pmix_info_t *info = nullptr;
    size_t n = 0;
    if (reader.unpack_counted(PMIX_INFO, reinterpret_cast<void **>(&info), &n) != PMIX_SUCCESS) return false;
    for (size_t i = 0; i < n; ++i) keys_p->push_back(info[i].key);
    if (infos_p != nullptr) {
        infos_p->adopt(info, n);
    } else if (info != nullptr) {
        PMIX_INFO_FREE(info, n);
    }
    return true;
}

void read_construct(const Message &m, ConstructSeen *seen_p)
{
    Reader reader = after_command(m);
    pmix_proc_t *procs = nullptr;
    size_t nprocs = 0;
    if (reader.unpack_string(&seen_p->group) != PMIX_SUCCESS ||
        reader.unpack_counted(PMIX_PROC, reinterpret_cast<void **>(&procs), &nprocs) != PMIX_SUCCESS) {
        return;
    }
    seen_p->procs.assign(procs, procs + nprocs);
    PMIX_PROC_FREE(procs, nprocs);
    seen_p->read = read_infos(reader, &seen_p->keys) && reader.at_end();
}

std::vector<uint8_t> construct_answer(size_t context_id)
{
    Writer writer(kV41);
    (void)writer.pack_status(PMIX_SUCCESS);
    (void)writer.pack_size(context_id);
    return writer.take();
}

// A member's PMIX_GROUP_LOCAL_CID kept under a group's context id, as
// OpenPMIx's server hands its qualified values out.
void pack_qualified_cid(Writer &writer, size_t local_cid, size_t context_id)
{
    pmix_info_t items[2];
    PMIX_INFO_LOAD(&items[0], PMIX_GROUP_LOCAL_CID, &local_cid, PMIX_SIZE);
    PMIX_INFO_LOAD(&items[1], PMIX_GROUP_CONTEXT_ID, &context_id, PMIX_SIZE);
    PMIX_INFO_SET_QUALIFIER(&items[1]);
    pmix_data_array_t array{};
    array.type = PMIX_INFO;
    array.size = 2;
    array.array = items;
    pmix_value_t value{};
    value.type = PMIX_DATA_ARRAY;
    value.data.darray = &array;
    (void)writer.pack_kval(PMIX_QUALIFIED_VALUE, value);
}

// Rank 1's data: its local cid in two groups, and a key of its own.
std::vector<uint8_t> qualified_get_answer()
{
    Writer object(kV41);
    (void)object.pack_proc(rank_of(1));
    pack_qualified_cid(object, 1235, kContextId);
    pack_qualified_cid(object, 9999, kContextId + 1);
    (void)object.pack_kval("peer.key", u32_value(42));
    Writer writer(kV41);
    (void)writer.pack_status(PMIX_SUCCESS);
    (void)writer.pack_byte_object(object.bytes().data(), object.bytes().size());
    return writer.take();
}

const pmix_info_t *find(const pmix_info_t *info, size_t n, const char *key)
{
    for (size_t i = 0; i < n; ++i) {
        if (PMIX_CHECK_KEY(&info[i], key)) return &info[i];
    }
    return nullptr;
}

pmix_status_t construct_two(const char *group, pmix_info_t **results_p, size_t *nresults_p)
{
    pmix_proc_t procs[2] = {rank_of(0), rank_of(1)};
    pmix_info_t directive;
    PMIX_INFO_LOAD(&directive, PMIX_GROUP_ASSIGN_CONTEXT_ID, nullptr, PMIX_BOOL);
    const pmix_status_t rc = PMIx_Group_construct(group, procs, 2, &directive, 1, results_p, nresults_p);
    PMIX_INFO_DESTRUCT(&directive);
    return rc;
}

}  // namespace

// A construct goes as OpenPMIx's command 24; its answer (the context id
// alone) comes back with the members, as our server answers; a get
// qualified by that context id finds the member's PMIX_GROUP_LOCAL_CID
// among the qualified values OpenPMIx's server answers with; destruct is 28.
Test(openpmix_groups, a_construct_gets_its_context_id_and_members, .timeout = 60)
{
    FakeOpenPmixServer server;
    ConstructSeen construct;
    std::vector<uint8_t> destruct;
    server.run([&](FakeOpenPmixServer &s, int fd) {
        if (!greet(s, fd)) return;
        s.serve(fd, [&](const Message &m) {
            switch (m.as_command()) {
            case Command::group_construct: read_construct(m, &construct); return construct_answer(kContextId);
            case Command::group_destruct: destruct = m.body; return FakeOpenPmixServer::status(PMIX_SUCCESS);
            case Command::get: return qualified_get_answer();
            default: return FakeOpenPmixServer::status(PMIX_SUCCESS);
            }
        });
    });
    pmix_proc_t me{};
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    cr_assert_eq(construct_two("ourgroup", &results, &nresults), PMIX_SUCCESS);
    cr_assert_eq(nresults, 2u);
    cr_expect_str_eq(results[0].key, PMIX_GROUP_CONTEXT_ID, "callers read results[0] as the context id");
    cr_expect_eq(results[0].value.data.size, kContextId);
    const pmix_info_t *members = find(results, nresults, PMIX_GROUP_MEMBERSHIP);
    cr_assert_not_null(members);
    cr_assert_eq(members->value.type, PMIX_DATA_ARRAY);
    cr_assert_eq(members->value.data.darray->size, 2u);
    const auto *procs = static_cast<const pmix_proc_t *>(members->value.data.darray->array);
    cr_expect_eq(procs[1].rank, 1u);
    PMIX_INFO_FREE(results, nresults);

    pmix_info_t qualifier;
    size_t context_id = kContextId;
    PMIX_INFO_LOAD(&qualifier, PMIX_GROUP_CONTEXT_ID, &context_id, PMIX_SIZE);
    PMIX_INFO_SET_QUALIFIER(&qualifier);
    pmix_proc_t rank1 = rank_of(1);
    pmix_value_t *value = nullptr;
    cr_expect_eq(PMIx_Get(&rank1, PMIX_GROUP_LOCAL_CID, &qualifier, 1, &value), PMIX_SUCCESS);
    if (value != nullptr) {
        cr_expect_eq(value->type, PMIX_SIZE);
        cr_expect_eq(value->data.size, 1235u, "the value of the other group's context id came back");
        PMIX_VALUE_RELEASE(value);
    }
    PMIX_INFO_DESTRUCT(&qualifier);
    cr_expect_eq(PMIx_Group_destruct("ourgroup", nullptr, 0), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();

    cr_expect(construct.read, "the construct did not read as [grp][nprocs][procs][ninfo][infos]");
    cr_expect_str_eq(construct.group.c_str(), "ourgroup");
    cr_assert_eq(construct.procs.size(), 2u);
    cr_expect_str_eq(construct.procs[0].nspace, kJob);
    cr_expect_eq(construct.procs[1].rank, 1u);
    cr_assert_eq(construct.keys.size(), 1u);
    cr_expect_str_eq(construct.keys[0].c_str(), PMIX_GROUP_ASSIGN_CONTEXT_ID);
    const Message destruct_message{0, destruct};
    Reader reader = after_command(destruct_message);
    std::string group;
    size_t ninfo = SIZE_MAX;
    cr_expect(reader.unpack_string(&group) == PMIX_SUCCESS && reader.unpack_size(&ninfo) == PMIX_SUCCESS);
    cr_expect_str_eq(group.c_str(), "ourgroup");
    cr_expect_eq(ninfo, 0u);
}

namespace {

// A notice as OpenPMIx's server reads it: [cmd][code][range][ninfo][infos].
struct NoticeSeen {
    pmix_status_t code = PMIX_SUCCESS;
    pmix_data_range_t range = PMIX_RANGE_UNDEF;
    std::vector<std::string> keys;
    wire::InfoArray info;
};

bool read_notice(const Message &m, NoticeSeen *seen_p)
{
    Reader reader = after_command(m);
    int32_t n = 1;
    return reader.unpack_status(&seen_p->code) == PMIX_SUCCESS &&
           reader.unpack(PMIX_DATA_RANGE, &seen_p->range, &n) == PMIX_SUCCESS &&
           read_infos(reader, &seen_p->keys, &seen_p->info) && reader.at_end();
}

// Tag 0: [cmd][code][source][ninfo][infos][range]
std::vector<uint8_t> event_from(pmix_status_t code, pmix_rank_t source)
{
    Writer writer(kV41);
    const uint8_t command = static_cast<uint8_t>(Command::notify);
    const pmix_data_range_t range = PMIX_RANGE_CUSTOM;
    (void)writer.pack(PMIX_UINT8, &command, 1);
    (void)writer.pack_status(code);
    (void)writer.pack_proc(rank_of(source));
    (void)writer.pack_size(0);
    (void)writer.pack(PMIX_DATA_RANGE, &range, 1);
    return writer.take();
}

size_t custom_range_size(const NoticeSeen &notice)
{
    for (const pmix_info_t &info : notice.info) {
        if (!PMIX_CHECK_KEY(&info, PMIX_EVENT_CUSTOM_RANGE)) continue;
        if (info.value.type == PMIX_PROC) return 1;
        if (info.value.type == PMIX_DATA_ARRAY) return info.value.data.darray->size;
    }
    return 0;
}

struct InvitationSeen {
    std::vector<pmix_status_t> registered;
    std::vector<NoticeSeen> notices;
};

// The leader's steps, each answered: the registration for the answers, the
// invitation, (rank 1 accepts, on tag 0), the completion; then a join.
void serve_invitation(FakeOpenPmixServer &s, int fd, InvitationSeen *seen_p)
{
    if (!greet(s, fd)) return;
    Message m;
    while (s.next(fd, &m)) {
        if (m.as_command() == Command::register_events) {
            Reader reader = after_command(m);
            pmix_status_t *codes = nullptr;
            size_t n = 0;
            if (reader.unpack_counted(PMIX_STATUS, reinterpret_cast<void **>(&codes), &n) == PMIX_SUCCESS) {
                seen_p->registered.assign(codes, codes + n);
                free(codes);
            }
        }
        bool invited = false;
        if (m.as_command() == Command::notify) {
            seen_p->notices.emplace_back();
            (void)read_notice(m, &seen_p->notices.back());
            invited = seen_p->notices.back().code == PMIX_GROUP_INVITED;
        }
        const bool last = m.as_command() == Command::finalize;
        if (!s.answer(fd, m.tag, FakeOpenPmixServer::status(PMIX_SUCCESS)) || last) return;
        if (invited && !s.answer(fd, openpmix::kTagEvent, event_from(PMIX_GROUP_INVITE_ACCEPTED, 1))) return;
    }
}

}  // namespace

// OpenPMIx 4.2 has no command for invite and join: the link speaks its
// clients' events, and the invitation ends once rank 1's acceptance (an
// event) came and the completion went out.
Test(openpmix_groups, an_invitation_runs_on_events, .timeout = 60)
{
    FakeOpenPmixServer server;
    InvitationSeen seen;
    server.run([&seen](FakeOpenPmixServer &s, int fd) { serve_invitation(s, fd, &seen); });
    pmix_proc_t me{};
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pmix_proc_t procs[2] = {rank_of(0), rank_of(1)};
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    cr_expect_eq(PMIx_Group_invite("asyncgrp", procs, 2, nullptr, 0, &results, &nresults), PMIX_SUCCESS);
    const pmix_info_t *members = find(results, nresults, PMIX_GROUP_MEMBERSHIP);
    cr_expect(members != nullptr && members->value.data.darray->size == 2u, "rank 1 accepted: two members");
    if (results != nullptr) PMIX_INFO_FREE(results, nresults);
    pmix_proc_t leader = rank_of(1);
    cr_expect_eq(PMIx_Group_join("othergrp", &leader, PMIX_GROUP_ACCEPT, nullptr, 0, &results, &nresults),
                 PMIX_SUCCESS);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();

    cr_assert_eq(seen.registered.size(), 2u);
    cr_expect_eq(seen.registered[0], PMIX_GROUP_INVITE_ACCEPTED);
    cr_expect_eq(seen.registered[1], PMIX_GROUP_INVITE_DECLINED);
    cr_assert_eq(seen.notices.size(), 3u);
    const NoticeSeen &invited = seen.notices[0];
    cr_expect_eq(invited.code, PMIX_GROUP_INVITED);
    cr_expect_eq(invited.range, PMIX_RANGE_CUSTOM);
    cr_expect_eq(custom_range_size(invited), 2u);
    cr_expect(find(invited.info.data(), invited.info.size(), PMIX_GROUP_ID) != nullptr);
    cr_expect(find(invited.info.data(), invited.info.size(), PMIX_EVENT_NON_DEFAULT) != nullptr);
    const NoticeSeen &complete = seen.notices[1];
    cr_expect_eq(complete.code, PMIX_GROUP_CONSTRUCT_COMPLETE);
    cr_expect_eq(custom_range_size(complete), 2u, "the members: OpenPMIx's server keeps the group from them");
    const NoticeSeen &join = seen.notices[2];
    cr_expect_eq(join.code, PMIX_GROUP_INVITE_ACCEPTED);
    cr_expect_eq(join.range, PMIX_RANGE_CUSTOM);
    cr_expect_eq(custom_range_size(join), 1u, "a join tells its leader only");
}

namespace {

constexpr const char kCredential[] = "opx-credential";

struct CredentialSeen {
    size_t get_dirs = SIZE_MAX;
    std::string validated;
    int gets = 0;
};

// [status][credential][ninfo][infos]
std::vector<uint8_t> credential_answer()
{
    Writer writer(kV41);
    (void)writer.pack_status(PMIX_SUCCESS);
    (void)writer.pack_byte_object(kCredential, sizeof kCredential - 1);
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_CRED_TYPE, "opx", PMIX_STRING);
    (void)writer.pack_counted(PMIX_INFO, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    return writer.take();
}

// The first get is the host's, the second finds no host upcall.
std::vector<uint8_t> answer_credential_request(const Message &m, CredentialSeen *seen_p)
{
    Reader reader = after_command(m);
    if (m.as_command() == Command::get_credential) {
        (void)reader.unpack_size(&seen_p->get_dirs);
        return ++seen_p->gets == 1 ? credential_answer() : FakeOpenPmixServer::status(PMIX_ERR_NOT_SUPPORTED);
    }
    pmix_byte_object_t bo{};
    int32_t n = 1;
    if (reader.unpack(PMIX_BYTE_OBJECT, &bo, &n) == PMIX_SUCCESS && bo.bytes != nullptr) {
        seen_p->validated.assign(bo.bytes, bo.size);
    }
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    Writer writer(kV41);
    (void)writer.pack_status(PMIX_SUCCESS);
    (void)writer.pack_size(0);
    return writer.take();
}

}  // namespace

// Get and validate go as OpenPMIx's commands 20 and 21; a server whose host
// has no credential upcall answers NOT_SUPPORTED, and the client's own psec
// makes one.
Test(openpmix_groups, a_credential_round_trip, .timeout = 60)
{
    FakeOpenPmixServer server;
    CredentialSeen seen;
    server.run([&seen](FakeOpenPmixServer &s, int fd) {
        if (!greet(s, fd)) return;
        s.serve(fd, [&seen](const Message &m) {
            const bool credential =
                m.as_command() == Command::get_credential || m.as_command() == Command::validate_credential;
            return credential ? answer_credential_request(m, &seen) : FakeOpenPmixServer::status(PMIX_SUCCESS);
        });
    });
    pmix_proc_t me{};
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pmix_byte_object_t credential{};
    pmix_info_t *info = nullptr;
    size_t ninfo = 0;
    cr_assert_eq(PMIx_Get_credential(nullptr, 0, &credential), PMIX_SUCCESS);
    cr_expect_eq(credential.size, sizeof kCredential - 1);
    cr_expect(credential.bytes != nullptr && std::memcmp(credential.bytes, kCredential, credential.size) == 0);
    cr_expect_eq(PMIx_Validate_credential(&credential, nullptr, 0, &info, &ninfo), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&credential);
    cr_expect_eq(PMIx_Get_credential(nullptr, 0, &credential), PMIX_SUCCESS, "the local psec did not step in");
    cr_expect_gt(credential.size, 0u);
    PMIX_BYTE_OBJECT_DESTRUCT(&credential);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
    cr_expect_eq(seen.get_dirs, 0u);
    cr_expect_eq(seen.gets, 2);
    cr_expect_str_eq(seen.validated.c_str(), kCredential);
}

// A construct answered with bytes that do not read (a context id cut short)
// fails that construct with a status; an event that does not read is
// dropped; the next construct is served.
Test(openpmix_groups, a_malformed_group_answer_fails_that_call_only, .init = cr_redirect_stderr, .timeout = 60)
{
    FakeOpenPmixServer server;
    server.run([](FakeOpenPmixServer &s, int fd) {
        if (!greet(s, fd)) return;
        int constructs = 0;
        Message m;
        while (s.next(fd, &m)) {
            std::vector<uint8_t> answer = FakeOpenPmixServer::status(PMIX_SUCCESS);
            const bool first = m.as_command() == Command::group_construct && ++constructs == 1;
            if (first) answer.insert(answer.end(), {0xff, 0xff, 0xff});
            if (m.as_command() == Command::group_construct && !first) answer = construct_answer(kContextId);
            const bool last = m.as_command() == Command::finalize;
            if (!s.answer(fd, m.tag, answer) || last) return;
            if (first && !s.answer(fd, openpmix::kTagEvent, std::vector<uint8_t>(5, 0xee))) return;
        }
    });
    pmix_proc_t me{};
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    const pmix_status_t first = construct_two("g1", &results, &nresults);
    cr_expect_neq(first, PMIX_SUCCESS);
    cr_expect_neq(first, PMIX_ERR_TIMEOUT, "the malformed answer should fail the call at once");
    cr_expect_null(results);
    cr_expect_eq(construct_two("g2", &results, &nresults), PMIX_SUCCESS);
    cr_expect(nresults > 0 && results[0].value.data.size == kContextId);
    if (results != nullptr) PMIX_INFO_FREE(results, nresults);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
}
