// SPIRV-Tools as child processes (see tools.h): spirv-val, spirv-opt and
// spirv-dis, found on PATH, read the words on their standard input; their
// standard output and error come back through pipes. Same options as the
// in-process wrappers in tools.cpp, so the same results.
#include "spirv/tools.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <string_view>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace dxspv::spirv {
namespace {

struct ToolRun {
    std::string failure; ///< why the tool could not be run; empty when it ran
    int exit_status = -1; ///< its exit status; -1 when killed by a signal
    std::string out, err;
};

void close_fd(int& fd)
{
    if (fd >= 0)
        close(fd);
    fd = -1;
}

/// Sends `input` and reads stdout and stderr at the same time, so that
/// neither side waits on a full pipe. The input end is a socket: send()
/// with MSG_NOSIGNAL gets EPIPE instead of SIGPIPE when the tool exits early.
void exchange(int& in, int& out, int& err, std::span<const uint8_t> input, ToolRun& run)
{
    size_t sent = 0;
    if (input.empty())
        close_fd(in);
    char buffer[16384];
    while (in >= 0 || out >= 0 || err >= 0) {
        pollfd fds[3] = {{in, POLLOUT, 0}, {out, POLLIN, 0}, {err, POLLIN, 0}};
        if (poll(fds, 3, -1) < 0) {
            if (errno == EINTR)
                continue;
            run.failure = std::string("poll: ") + std::strerror(errno);
            break;
        }
        if (in >= 0 && fds[0].revents) {
            ssize_t n = send(in, input.data() + sent, input.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0)
                sent += static_cast<size_t>(n);
            if ((n < 0 && errno != EAGAIN && errno != EINTR) || sent == input.size())
                close_fd(in);
        }
        int* readers[2] = {&out, &err};
        std::string* sinks[2] = {&run.out, &run.err};
        for (int i = 0; i < 2; ++i) {
            if (*readers[i] < 0 || !fds[i + 1].revents)
                continue;
            ssize_t n = read(*readers[i], buffer, sizeof buffer);
            if (n > 0)
                sinks[i]->append(buffer, static_cast<size_t>(n));
            else if (n == 0 || (errno != EINTR && errno != EAGAIN))
                close_fd(*readers[i]);
        }
    }
    close_fd(in);
    close_fd(out);
    close_fd(err);
}

/// Runs argv[0] (looked up on PATH) with `input` on its standard input.
ToolRun run_tool(const char* const* argv, std::span<const uint8_t> input)
{
    ToolRun run;
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
        pipe2(err, O_CLOEXEC) != 0) {
        run.failure = std::string("cannot create pipes: ") + std::strerror(errno);
        for (int* p : {in, out, err}) {
            close_fd(p[0]);
            close_fd(p[1]);
        }
        return run;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    pid_t pid = -1;
    int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, const_cast<char* const*>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    close_fd(in[1]);
    close_fd(out[1]);
    close_fd(err[1]);
    if (spawned != 0) {
        run.failure = std::string("cannot run ") + argv[0] + ": " + std::strerror(spawned) +
                      " (SPIRV-Tools' command line tools: Debian package spirv-tools)";
        close_fd(in[0]);
        close_fd(out[0]);
        close_fd(err[0]);
        return run;
    }
    exchange(in[0], out[0], err[0], input, run);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

std::span<const uint8_t> as_bytes(std::span<const uint32_t> words)
{
    return {reinterpret_cast<const uint8_t*>(words.data()), words.size() * sizeof(uint32_t)};
}

/// Reports each line the tool wrote to stderr (warnings as warnings, the rest
/// as errors under `code`), or why it did not run; true if none was an error.
bool report(const ToolRun& run, Diagnostics& diags, Code code, const char* tool)
{
    if (!run.failure.empty()) {
        diags.error(code, Location::none(), "%s", run.failure.c_str());
        return false;
    }
    bool errors = false;
    std::string_view rest = run.err;
    while (!rest.empty()) {
        size_t end = rest.find('\n');
        std::string line(rest.substr(0, end));
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        if (line.empty())
            continue;
        if (line.rfind("warning", 0) == 0) {
            diags.warning(code, Location::none(), "%s: %s", tool, line.c_str());
        } else {
            diags.error(code, Location::none(), "%s: %s", tool, line.c_str());
            errors = true;
        }
    }
    if (run.exit_status != 0 && !errors) {
        diags.error(code, Location::none(), "%s failed (exit status %d)", tool, run.exit_status);
        errors = true;
    }
    return !errors;
}

} // namespace

bool validate_spirv(std::span<const uint32_t> words, TargetEnv env, Diagnostics& diags)
{
    const char* argv[] = {"spirv-val", "--target-env", target_env_name(env), "-", nullptr};
    ToolRun run = run_tool(argv, as_bytes(words));
    return report(run, diags, Code::spirv_validation_failed, "spirv-val") && run.exit_status == 0;
}

std::string disassemble_spirv(std::span<const uint32_t> words)
{
    const char* argv[] = {"spirv-dis", "--no-header", "--no-indent", "--no-color", "-", "-o", "-", nullptr};
    ToolRun run = run_tool(argv, as_bytes(words));
    if (!run.failure.empty())
        return "; disassembly failed: " + run.failure + "\n";
    if (run.exit_status != 0)
        return "; disassembly failed: " + run.err + (run.err.ends_with('\n') ? "" : "\n");
    return run.out;
}

bool optimize_spirv(std::vector<uint32_t>& words, TargetEnv env, Diagnostics& diags)
{
    std::string target = std::string("--target-env=") + target_env_name(env);
    const char* argv[] = {"spirv-opt", "-O", target.c_str(), "-", "-o", "-", nullptr};
    ToolRun run = run_tool(argv, as_bytes(words));
    if (!report(run, diags, Code::spirv_optimization_failed, "spirv-opt"))
        return false;
    if (run.out.size() < 20 || run.out.size() % 4 != 0) {
        diags.error(Code::spirv_optimization_failed, Location::none(), "spirv-opt wrote %zu bytes, not a SPIR-V module",
                    run.out.size());
        return false;
    }
    words.resize(run.out.size() / 4);
    std::memcpy(words.data(), run.out.data(), run.out.size());
    return true;
}

} // namespace dxspv::spirv
