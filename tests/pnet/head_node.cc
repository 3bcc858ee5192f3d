// pnet_head_node: the head node of pnet_flow (flow_test.cc). A server of its
// own calls setup_application for the job "pnet.flow" (2 processes) and
// writes the result, packed as a launch message carries it (a PMIX_SIZE
// count, then the PMIX_INFO array), to stdout. Exit codes name the step
// that failed.
#include <pmix.h>
#include <pmix_server.h>

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <string>

namespace {

constexpr const char *kNs = "pnet.flow";

struct HeadWait {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    pmix_data_buffer_t buffer;
    pmix_status_t status = PMIX_ERR_TIMEOUT;
};

void on_head_result(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *provided, pmix_op_cbfunc_t release,
                    void *release_cbdata)
{
    auto *wait = static_cast<HeadWait *>(provided);
    std::lock_guard lock(wait->mutex);
    wait->status = status;
    if (status == PMIX_SUCCESS) {
        wait->status = PMIx_Data_pack(nullptr, &wait->buffer, &ninfo, 1, PMIX_SIZE);
        if (wait->status == PMIX_SUCCESS && ninfo > 0) {
            wait->status = PMIx_Data_pack(nullptr, &wait->buffer, info, static_cast<int32_t>(ninfo), PMIX_INFO);
        }
    }
    if (release != nullptr) release(PMIX_SUCCESS, release_cbdata);
    wait->done = true;
    wait->cv.notify_all();
}

bool write_all(int fd, const char *bytes, std::size_t size)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::write(fd, bytes + done, size - done);
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

int run_head_node(const std::string &scratch)
{
    pmix_info_t dirs[2];
    PMIX_INFO_LOAD(&dirs[0], PMIX_SERVER_TMPDIR, scratch.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[1], PMIX_SYSTEM_TMPDIR, scratch.c_str(), PMIX_STRING);
    static pmix_server_module_t module{};
    const pmix_status_t started = PMIx_server_init(&module, dirs, 2);
    PMIX_INFO_DESTRUCT(&dirs[0]);
    PMIX_INFO_DESTRUCT(&dirs[1]);
    if (started != PMIX_SUCCESS) return 10;
    uint32_t size = 2;
    pmix_info_t job;
    PMIX_INFO_LOAD(&job, PMIX_JOB_SIZE, &size, PMIX_UINT32);
    HeadWait wait;
    PMIX_DATA_BUFFER_CONSTRUCT(&wait.buffer);
    {
        std::unique_lock lock(wait.mutex);
        if (PMIx_server_setup_application(kNs, &job, 1, on_head_result, &wait) != PMIX_SUCCESS) return 11;
        if (!wait.cv.wait_for(lock, std::chrono::seconds(20), [&] { return wait.done; })) return 12;
    }
    if (wait.status != PMIX_SUCCESS) return 13;
    if (!write_all(STDOUT_FILENO, wait.buffer.base_ptr, wait.buffer.bytes_used)) return 14;
    ::close(STDOUT_FILENO);  // the reader sees the end of the message now
    PMIX_DATA_BUFFER_DESTRUCT(&wait.buffer);
    PMIx_server_finalize();
    return 0;
}

}  // namespace

int main()
{
    char scratch[] = "/tmp/pmixpp-pnet-head-XXXXXX";
    if (::mkdtemp(scratch) == nullptr) return 9;
    const int code = run_head_node(scratch);
    std::error_code ignored;
    std::filesystem::remove_all(scratch, ignored);
    return code;
}
