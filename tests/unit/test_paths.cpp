// The only unit-test file compiled with the checkout's absolute paths (see test_paths.h).
#include "test_paths.h"

const char* libdace_test_corpus_dir() { return LIBDACE_TEST_CORPUS_DIR; }
const char* libdace_test_source_dir() { return LIBDACE_TEST_SOURCE_DIR; }
const char* libdace_test_binary_dir() { return LIBDACE_TEST_BINARY_DIR; }
