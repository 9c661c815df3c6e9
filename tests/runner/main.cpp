// shader-runner: runs .shader_test files (Wine vkd3d's format) on the Vulkan
// device it finds, translating their shaders with dxspv.
//
//   shader-runner [--timeout SECONDS] [--verbose] FILE-OR-DIRECTORY...
//
// Each file runs in a child process, so a crash or a hang (killed after the
// timeout) fails that file only. One line per file (PASS / FAIL / SKIP and
// why), then "N passed, N failed, N skipped". Exit status 1 when any failed.
#include "execute.h"
#include "parser.h"
#include "vulkan_device.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

enum ExitCode { exit_pass = 0, exit_fail = 1, exit_skip = 2 };

[[noreturn]] void finish(int fd, ExitCode code, const std::string& message)
{
    (void)!write(fd, message.data(), message.size());
    close(fd);
    std::fflush(stdout);
    _exit(code);
}

/// Runs in the child: parse, run, write the message to `fd`, exit with the status.
[[noreturn]] void child_main(const std::string& path, int fd)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        finish(fd, exit_fail, "cannot read the file");
    std::stringstream ss;
    ss << in.rdbuf();
    runner::TestFile file;
    std::string error;
    if (!runner::parse_test_file(ss.str(), path, file, error))
        finish(fd, exit_fail, error);
    runner::Device device;
    if (!device.init(error))
        finish(fd, exit_skip, "no Vulkan device: " + error);
    runner::FileOutcome out = runner::run_file(file, device);
    switch (out.status) {
    case runner::FileOutcome::Status::pass: finish(fd, exit_pass, out.message);
    case runner::FileOutcome::Status::fail: finish(fd, exit_fail, out.message);
    case runner::FileOutcome::Status::skip: finish(fd, exit_skip, out.message);
    }
    _exit(exit_fail);
}

struct Outcome {
    ExitCode code = exit_fail;
    std::string message;
};

Outcome run_in_child(const std::string& path, int timeout_seconds)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {exit_fail, std::string("pipe: ") + std::strerror(errno)};
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return {exit_fail, std::string("fork: ") + std::strerror(errno)};
    if (pid == 0) {
        close(fds[0]);
        child_main(path, fds[1]);
    }
    close(fds[1]);
    std::string message;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
    bool timed_out = false;
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out = true;
            break;
        }
        pollfd p = {fds[0], POLLIN, 0};
        int r = poll(&p, 1, static_cast<int>(left.count()));
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            timed_out = true;
            break;
        }
        char buf[4096];
        ssize_t n = read(fds[0], buf, sizeof(buf));
        if (n <= 0)
            break;
        message.append(buf, static_cast<size_t>(n));
    }
    close(fds[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timed_out)
        return {exit_fail, "timed out after " + std::to_string(timeout_seconds) + " s"};
    if (WIFSIGNALED(status))
        return {exit_fail, std::string("crashed (") + strsignal(WTERMSIG(status)) + ")" + (message.empty() ? "" : ": " + message)};
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : exit_fail;
    if (code != exit_pass && code != exit_skip)
        code = exit_fail;
    return {static_cast<ExitCode>(code), message};
}

int usage()
{
    std::fprintf(stderr, "usage: shader-runner [--timeout SECONDS] FILE-OR-DIRECTORY...\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    int timeout = 60;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--timeout" && i + 1 < argc) {
            timeout = std::atoi(argv[++i]);
            if (timeout <= 0)
                return usage();
        } else if (arg == "-h" || arg == "--help") {
            usage();
            return 0;
        } else if (!arg.empty() && arg[0] == '-') {
            return usage();
        } else {
            std::error_code ec;
            if (std::filesystem::is_directory(arg, ec)) {
                for (const auto& e : std::filesystem::recursive_directory_iterator(arg, ec))
                    if (e.is_regular_file() && e.path().extension() == ".shader_test")
                        files.push_back(e.path().string());
            } else {
                files.push_back(arg);
            }
        }
    }
    if (files.empty()) {
        std::fprintf(stderr, "shader-runner: no .shader_test files given\n");
        return usage();
    }
    std::sort(files.begin(), files.end());
    if (!getenv("XDG_RUNTIME_DIR"))
        setenv("XDG_RUNTIME_DIR", "/tmp", 0);
    int passed = 0, failed = 0, skipped = 0;
    for (const std::string& path : files) {
        Outcome o = run_in_child(path, timeout);
        const char* tag = o.code == exit_pass ? "PASS" : o.code == exit_skip ? "SKIP" : "FAIL";
        (o.code == exit_pass ? passed : o.code == exit_skip ? skipped : failed)++;
        std::printf("%s %s%s%s\n", tag, path.c_str(), o.message.empty() ? "" : ": ", o.message.c_str());
        std::fflush(stdout);
    }
    std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
