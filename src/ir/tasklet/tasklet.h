// The tasklet language in one include: AST, parser, printer, types and type checking.
#pragma once
#include "ir/tasklet/ast.h"
#include "ir/tasklet/builtins.h"
#include "ir/tasklet/language.h"
#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"
#include "ir/tasklet/typecheck.h"
#include "ir/tasklet/types.h"
