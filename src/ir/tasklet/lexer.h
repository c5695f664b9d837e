// Tokenizer of the tasklet language (internal to the parser): Python's tokens for the
// accepted subset, with NEWLINE/INDENT/DEDENT produced by Python's indentation rules.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "ir/result.h"
#include "ir/tasklet/ast.h"

namespace dace::tasklet {

enum class TokenKind { Name, Number, Op, Newline, Indent, Dedent, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;   // Name: identifier; Op: operator spelling; Number: the literal as written
  SourceLoc loc;
  Constant number;    // Number only: the decoded literal
};

// Error of kind ParseError located at `loc`, message prefixed "line L, column C: ".
Error syntax_error(SourceLoc loc, const std::string& message);

// Splits `source` into tokens. The last token is End, preceded by a Newline and the Dedents
// closing every open block.
Result<std::vector<Token>> tokenize(std::string_view source);

}  // namespace dace::tasklet
