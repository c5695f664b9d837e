// Where the unit tests find the sources, the build tree and the shared corpus.
//
// The paths are returned by functions defined in one file (test_paths.cpp) instead of being
// baked into every test through -D defines: with the defines, each checkout of the repository
// compiled every test file anew (the absolute paths are part of each compile command), so
// ccache could not share objects between checkouts. Force-included into every unit test.
#pragma once

const char* libdace_test_corpus_dir();
const char* libdace_test_source_dir();
const char* libdace_test_binary_dir();

#define LIBDACE_CORPUS_DIR (libdace_test_corpus_dir())
#define LIBDACE_SOURCE_DIR (libdace_test_source_dir())
#define LIBDACE_BINARY_DIR (libdace_test_binary_dir())
