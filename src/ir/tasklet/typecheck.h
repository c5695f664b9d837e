// Type checking of tasklet code against its connectors and the SDFG's symbols: annotates
// every expression with its ScalarType (DaCe/NumPy promotion, see types.h and
// docs/tasklet-language.md) and rejects code DaCe could not compile. Errors are
// Code::InvalidSdfg with line/column set and the message prefixed "line L, column C: ".
#pragma once
#include <map>
#include <string>

#include "ir/result.h"
#include "ir/tasklet/ast.h"

namespace dace::tasklet {

struct ConnectorInfo {
  ScalarType type = ScalarType::Unknown;
  int rank = 0;            // 0: scalar; >0: indexed with exactly `rank` indices
  bool is_stream = false;  // input: `x = s.pop()`; output: `s.push(x)` / `s.append(x)`
};

struct TypedProgram {
  Program program;  // the same statements, every Expr's `type` filled in
  // Every output connector with its type; an Unknown connector written with a value takes
  // that value's type (as DaCe infers connector types), otherwise it stays Unknown.
  std::map<std::string, ScalarType> outputs;
  std::map<std::string, ScalarType> locals;  // temporaries, typed by their first assignment
};

Result<TypedProgram> typecheck(const Program& program,
                               const std::map<std::string, ConnectorInfo>& inputs,
                               const std::map<std::string, ConnectorInfo>& outputs,
                               const std::map<std::string, ScalarType>& symbols);

// One expression outside a tasklet (interstate condition, assignment right-hand side, loop
// bound): names are symbols or data containers (`arrays`, indexed by rank). Returns the
// annotated expression.
Result<ExprPtr> typecheck_expression(const Expr& expr,
                                     const std::map<std::string, ConnectorInfo>& arrays,
                                     const std::map<std::string, ScalarType>& symbols);

}  // namespace dace::tasklet
