// Hostile input through the C API (issue 15): unbounded files, names the validator would
// refuse later, and library-internal text in messages.
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "capi_test_util.h"
#include "process_memory_support.h"
#include "scoped_env.h"

namespace {

namespace fs = std::filesystem;

using test_support::ScopedEnv;

TEST(CApiHostileInput, DevZeroIsRefusedAtTheInputLimit) {
  // 1 MiB instead of the 1 GiB default keeps the test fast; the read stops there.
  ScopedEnv limit("DACE_MAX_INPUT_BYTES", "1048576");
  dace_sdfg_t* s = nullptr;
  EXPECT_DACE_ERROR(dace_sdfg_load_file(&s, "/dev/zero"), DACE_ERROR_IO, "input limit of 1048576 bytes");
  EXPECT_EQ(s, nullptr);
}

TEST(CApiHostileInput, FileOverTheLimitIsRefusedAndUnderItLoads) {
  const std::string path = std::string(LIBDACE_CORPUS_DIR) + "/gemm/gemm.simp.sdfg";
  const auto size = static_cast<long long>(fs::file_size(path));
  dace_sdfg_t* s = nullptr;
  {
    ScopedEnv limit("DACE_MAX_INPUT_BYTES", std::to_string(size - 1));
    EXPECT_DACE_ERROR(dace_sdfg_load_file(&s, path.c_str()), DACE_ERROR_IO, "input limit");
  }
  {
    ScopedEnv limit("DACE_MAX_INPUT_BYTES", std::to_string(size));
    ASSERT_DACE_OK(dace_sdfg_load_file(&s, path.c_str()));
    dace_sdfg_release(s);
  }
}

TEST(CApiHostileInput, FifoIsReadToItsEnd) {
  const std::string path = (fs::temp_directory_path() / ("libdace_fifo_" + std::to_string(::getpid()))).string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const std::string corpus = std::string(LIBDACE_CORPUS_DIR) + "/gemm/gemm.simp.sdfg";
  pid_t writer = fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    bool written = false;
    {
      std::ifstream in(corpus, std::ios::binary);
      std::ofstream out(path, std::ios::binary);
      out << in.rdbuf();
      // Closed before _exit, which runs no destructors: a tail the stream still buffers would
      // be lost (libstdc++ 13 and later buffer a final piece shorter than the buffer).
      out.close();
      written = static_cast<bool>(out);
    }
    _exit(written ? 0 : 1);
  }
  dace_sdfg_t* s = nullptr;
  EXPECT_DACE_OK(dace_sdfg_load_file(&s, path.c_str()));
  dace_sdfg_release(s);
  int status = 0;
  ASSERT_EQ(waitpid(writer, &status, 0), writer);
  ::unlink(path.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the writer could not write the whole file";
}

std::atomic<int> interruptions{0};
void count_interruption(int) { interruptions.fetch_add(1); }

// A writer that pauses between chunks while the reader waits in read(), and a signal whose
// handler does not restart system calls (SA_RESTART unset, as an embedding application may
// install) arriving during the wait: neither is the end of the input. The SDFG read from the
// FIFO equals the one read from the regular file.
TEST(CApiHostileInput, FifoIsReadToItsEndThroughPausesAndSignals) {
  const std::string path =
      (fs::temp_directory_path() / ("libdace_fifo_pauses_" + std::to_string(::getpid()))).string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const std::string corpus = std::string(LIBDACE_CORPUS_DIR) + "/gemm/gemm.simp.sdfg";
  std::string text;
  {
    std::ifstream in(corpus, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(text.size(), 3u * 4096) << corpus;

  struct sigaction handler{}, old_usr1{}, old_pipe{};
  handler.sa_handler = count_interruption;
  sigemptyset(&handler.sa_mask);
  handler.sa_flags = 0;  // no SA_RESTART
  ASSERT_EQ(sigaction(SIGUSR1, &handler, &old_usr1), 0);
  struct sigaction ignore{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ASSERT_EQ(sigaction(SIGPIPE, &ignore, &old_pipe), 0);  // a reader that gives up: EPIPE
  interruptions = 0;

  const pthread_t reader = pthread_self();
  std::thread writer([&] {
    const int fd = ::open(path.c_str(), O_WRONLY);  // waits for the reader to open the FIFO
    if (fd < 0) return;
    constexpr size_t kChunk = 4096;
    for (size_t at = 0, k = 0; at < text.size(); ++k) {
      const size_t n = std::min(kChunk, text.size() - at);
      const ssize_t put = ::write(fd, text.data() + at, n);
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) break;
      at += static_cast<size_t>(put);
      // By now the reader has taken the chunk and waits in read() for the next one.
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      if (k < 3) {
        ::pthread_kill(reader, SIGUSR1);
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
      }
    }
    ::close(fd);
  });
  dace_sdfg_t* from_fifo = nullptr;
  const dace_status_t status = dace_sdfg_load_file(&from_fifo, path.c_str());
  const std::string message = status == DACE_OK ? "" : dace_last_error_message();
  writer.join();
  sigaction(SIGUSR1, &old_usr1, nullptr);
  sigaction(SIGPIPE, &old_pipe, nullptr);
  ::unlink(path.c_str());

  ASSERT_EQ(status, DACE_OK) << message;
  EXPECT_EQ(interruptions.load(), 3) << "the signals did not reach the reader";
  dace_sdfg_t* from_file = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_file(&from_file, corpus.c_str()));
  char* fifo_json = nullptr;
  char* file_json = nullptr;
  EXPECT_DACE_OK(dace_sdfg_to_json(&fifo_json, from_fifo, nullptr));
  EXPECT_DACE_OK(dace_sdfg_to_json(&file_json, from_file, nullptr));
  EXPECT_TRUE(fifo_json && file_json && std::string(fifo_json) == file_json);
  dace_string_free(fifo_json);
  dace_string_free(file_json);
  dace_sdfg_release(from_fifo);
  dace_sdfg_release(from_file);
}

TEST(CApiHostileInput, DirectoryIsAnIoError) {
  dace_sdfg_t* s = nullptr;
  EXPECT_DACE_ERROR(dace_sdfg_load_file(&s, "/tmp"), DACE_ERROR_IO, "directory");
}

// Under RLIMIT_AS (child process) a big file cannot be buffered: the status is
// DACE_ERROR_OUT_OF_MEMORY, not a JSON syntax error about a truncated document. Skipped under
// AddressSanitizer: its allocator and shadow memory need address space of their own, and it
// reports the failed mapping itself instead of letting the allocation fail.
TEST(CApiHostileInput, AllocationFailureWhileReadingIsOutOfMemory) {
  if (dace::testing_support::kAddressSanitizer)
    GTEST_SKIP() << "RLIMIT_AS tests do not run under AddressSanitizer";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    rlimit lim{};
    getrlimit(RLIMIT_AS, &lim);
    std::ifstream st("/proc/self/status");
    std::string key;
    long long vm_kb = -1;
    while (st >> key)
      if (key == "VmSize:") {
        st >> vm_kb;
        break;
      }
    if (vm_kb <= 0) _exit(10);
    lim.rlim_cur = static_cast<rlim_t>((vm_kb << 10) + (256LL << 20));
    if (setrlimit(RLIMIT_AS, &lim) != 0) _exit(11);
    // /dev/zero under a 4 GiB input limit: memory runs out first.
    ::setenv("DACE_MAX_INPUT_BYTES", "4294967296", 1);
    dace_sdfg_t* s = nullptr;
    dace_status_t rc = dace_sdfg_load_file(&s, "/dev/zero");
    std::string msg = dace_last_error_message();
    if (rc != DACE_ERROR_OUT_OF_MEMORY) _exit(12);
    if (msg.find("out of memory") == std::string::npos || msg.find("JSON") != std::string::npos) _exit(13);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10/11 limit, 12 status, 13 message";
}

// Names the validator refuses (DaCe's validate_name) are refused where they enter.
TEST(CApiHostileInput, InvalidNamesAreRefusedByTheBuilder) {
  dace_sdfg_t* s = nullptr;
  EXPECT_DACE_ERROR(dace_sdfg_create(&s, "True"), DACE_ERROR_INVALID_ARGUMENT, "\"True\" is not a valid identifier");
  EXPECT_DACE_ERROR(dace_sdfg_create(&s, "None"), DACE_ERROR_INVALID_ARGUMENT, "not a valid identifier");
  ASSERT_DACE_OK(dace_sdfg_create(&s, "ok"));
  dace_id_t st = -1;
  EXPECT_DACE_ERROR(dace_sdfg_add_state(&st, s, DACE_ROOT_REGION, "1bad"), DACE_ERROR_INVALID_ARGUMENT,
                    "\"1bad\" is not a valid identifier");
  EXPECT_DACE_ERROR(dace_sdfg_add_state(&st, s, DACE_ROOT_REGION, "False"), DACE_ERROR_INVALID_ARGUMENT,
                    "not a valid identifier");
  ASSERT_DACE_OK(dace_sdfg_add_state(&st, s, DACE_ROOT_REGION, "s0"));
  EXPECT_DACE_ERROR(dace_block_set_label(s, st, "1x"), DACE_ERROR_INVALID_ARGUMENT, "\"1x\" is not a valid identifier");
  dace_id_t t = -1;
  EXPECT_DACE_ERROR(dace_state_add_tasklet(&t, s, st, "my tasklet", "", "o", "o = 1", DACE_LANGUAGE_PYTHON),
                    DACE_ERROR_INVALID_ARGUMENT, "not a valid identifier");
  ASSERT_DACE_OK(dace_state_add_tasklet(&t, s, st, "t", "", "", "", DACE_LANGUAGE_PYTHON));
  EXPECT_DACE_ERROR(dace_node_set_label(s, st, t, "9t"), DACE_ERROR_INVALID_ARGUMENT, "not a valid identifier");
  dace_id_t e = -1, x = -1;
  EXPECT_DACE_ERROR(dace_state_add_map(&e, &x, s, st, "None", "i=0:4", nullptr), DACE_ERROR_INVALID_ARGUMENT,
                    "not a valid identifier");
  // What was refused left the SDFG valid, with its labels unchanged.
  EXPECT_DACE_OK(dace_sdfg_validate(s));
  const char* label = nullptr;
  ASSERT_DACE_OK(dace_block_get_label(&label, s, st));
  EXPECT_STREQ(label, "s0");
  dace_sdfg_release(s);
}

TEST(CApiHostileInput, MalformedLibraryPropertiesSpeakOurWords) {
  dace_sdfg_t* s = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&s, "lib"));
  dace_id_t st = -1, n = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&st, s, DACE_ROOT_REGION, "s0"));
  EXPECT_EQ(dace_state_add_library_node(&n, s, st, "mm", "dace.libraries.blas.nodes.matmul.MatMul", "pure", "{\"alpha\": ",
                                        "_a, _b", "_c"),
            DACE_ERROR_PARSE);
  std::string msg = dace_last_error_message();
  EXPECT_EQ(msg.find("json.exception"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"mm\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("properties JSON"), std::string::npos) << msg;
  ASSERT_DACE_OK(dace_state_add_library_node(&n, s, st, "mm", "dace.libraries.blas.nodes.matmul.MatMul", "pure", "{}",
                                             "_a, _b", "_c"));
  EXPECT_EQ(dace_node_set_library_properties(s, st, n, nullptr, "[1, 2"), DACE_ERROR_PARSE);
  msg = dace_last_error_message();
  EXPECT_EQ(msg.find("json.exception"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"mm\""), std::string::npos) << msg;
  dace_sdfg_release(s);
}

}  // namespace
