// What a rendering drew, independent of Graphviz: every element with its id, its kind and
// the boxes (clusters) that contain it. The HTML page uses it to collapse scopes; tests use
// it to check that every SDFG element was drawn.
#pragma once
#include <string>
#include <vector>

namespace dace::render {

enum class ElementKind { Block, Scope, NestedSdfg, Node, Memlet, Interstate };
const char* to_string(ElementKind kind);  // "block", "scope", "nested", "node", "memlet", "interstate"

struct DrawnElement {
  std::string id;                       // the SVG element id
  ElementKind kind;
  std::vector<std::string> containers;  // ids of the boxes around it, outermost first
};

struct Drawing {
  std::string svg;
  std::vector<DrawnElement> elements;  // in drawing order (deterministic)
};

}  // namespace dace::render
