// Runs the sweep program as a user would, through the shell, and captures
// what it prints and its exit code. Tests that use it define SWEEP_BIN (the
// program's path) and depend on the sweep_cli target.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace sweep::test {

/// What the program printed (the streams asked for) and its exit code (-1
/// when it did not exit normally).
struct Output {
    int status = -1;
    std::string text;
};

/// Runs `sweep args redirections`: `redirections` is shell syntax for the
/// streams, e.g. "2>&1" (both), "2>/dev/null" (stdout only) or
/// "2>&1 >/dev/null" (stderr only).
inline Output run_program(const std::string& args, const std::string& redirections) {
    const std::string command = std::string(SWEEP_BIN) + " " + args + " " + redirections;
    Output out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        return out;
    }
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe)) {
        out.text += buffer.data();
    }
    const int status = pclose(pipe);
    out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

} // namespace sweep::test
