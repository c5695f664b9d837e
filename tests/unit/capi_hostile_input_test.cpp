// Hostile input through the C API (issue 15): unbounded files, names the validator would
// refuse later, and library-internal text in messages.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

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
    std::ifstream in(corpus, std::ios::binary);
    std::ofstream out(path, std::ios::binary);
    out << in.rdbuf();
    _exit(0);
  }
  dace_sdfg_t* s = nullptr;
  EXPECT_DACE_OK(dace_sdfg_load_file(&s, path.c_str()));
  dace_sdfg_release(s);
  int status = 0;
  waitpid(writer, &status, 0);
  ::unlink(path.c_str());
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
