// Which tasklet languages libdace compiles. DaCe also writes CPP (and other) tasklets; they
// are stored and round-trip verbatim, but compiling them would need a C++ compiler.
#pragma once
#include <string_view>

#include "ir/result.h"

namespace dace::tasklet {

// True only for "Python" (DaCe's `dtypes.Language.Python` as its JSON spells it).
bool is_supported_language(std::string_view language);

// Code::Unsupported error for a tasklet in `language`; `element` names the tasklet
// (e.g. `sdfg "gemm" / state "s0" / node 4`) and leads the message.
Error unsupported_language_error(std::string_view language, std::string_view element);

}  // namespace dace::tasklet
