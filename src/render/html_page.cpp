// html_page(): the SVG in one self-contained page with pan, zoom and collapsible boxes.
// Everything (style, script, the list of drawn elements) is inline, so the file can be
// mailed, attached to an issue or opened from a cluster's file system without a server.
#include <string>

#include "render/render.h"

namespace dace::render {

namespace {

std::string escape_html(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A JSON string literal that is also safe inside <script> ("</" cannot appear).
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char* hex = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xF];
          out += hex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string elements_json(const Drawing& drawing) {
  std::string out = "[";
  bool first = true;
  for (const auto& e : drawing.elements) {
    if (!first) out += ",\n";
    first = false;
    out += "{\"id\":" + json_string(e.id) + ",\"kind\":\"" + to_string(e.kind) + "\",\"in\":[";
    for (size_t k = 0; k < e.containers.size(); ++k) out += (k ? "," : "") + json_string(e.containers[k]);
    out += "]}";
  }
  return out + "]";
}

// The <svg> element without the XML prologue and DOCTYPE Graphviz writes before it.
std::string svg_element(const std::string& svg) {
  size_t start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

constexpr const char* kStyle = R"CSS(
html, body { margin: 0; height: 100%; font-family: Helvetica, Arial, sans-serif; }
#toolbar { position: fixed; top: 0; left: 0; right: 0; height: 32px; padding: 4px 8px;
  box-sizing: border-box; background: #f4f4f4; border-bottom: 1px solid #ccc; font-size: 13px; z-index: 1; }
#toolbar button { margin-left: 4px; }
#hint { color: #666; margin-left: 12px; }
#view { position: absolute; top: 32px; left: 0; right: 0; bottom: 0; overflow: hidden; cursor: grab; }
#view.dragging { cursor: grabbing; }
#view svg { width: 100%; height: 100%; }
g.cluster.sdfg-scope > text, g.cluster.sdfg-block > text, g.cluster.sdfg-branch > text,
g.cluster.sdfg-nested-box > text, g.cluster > polygon { cursor: pointer; }
g.cluster.collapsed > polygon { fill: #e6e6e6; }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
  'use strict';
  var elements = JSON.parse(document.getElementById('sdfg-elements').textContent);
  var view = document.getElementById('view');
  var svg = view.querySelector('svg');
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  var full = svg.getAttribute('viewBox').split(/[\s,]+/).map(Number);
  var box = full.slice();
  function apply() { svg.setAttribute('viewBox', box.join(' ')); }
  function fit() { box = full.slice(); apply(); }
  function zoom(factor, cx, cy) {
    var r = svg.getBoundingClientRect();
    var px = box[0] + (cx - r.left) / r.width * box[2];
    var py = box[1] + (cy - r.top) / r.height * box[3];
    box[2] *= factor; box[3] *= factor;
    box[0] = px - (cx - r.left) / r.width * box[2];
    box[1] = py - (cy - r.top) / r.height * box[3];
    apply();
  }
  view.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, ev.clientX, ev.clientY);
  }, { passive: false });
  var drag = null;
  view.addEventListener('mousedown', function (ev) {
    drag = { x: ev.clientX, y: ev.clientY, moved: false };
    view.classList.add('dragging');
  });
  window.addEventListener('mousemove', function (ev) {
    if (!drag) return;
    var r = svg.getBoundingClientRect();
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
    box[0] -= dx / r.width * box[2];
    box[1] -= dy / r.height * box[3];
    drag.x = ev.clientX; drag.y = ev.clientY;
    apply();
  });
  window.addEventListener('mouseup', function () { view.classList.remove('dragging'); setTimeout(function () { drag = null; }, 0); });
  window.addEventListener('keydown', function (ev) {
    var r = svg.getBoundingClientRect();
    if (ev.key === '+' || ev.key === '=') zoom(1 / 1.25, r.left + r.width / 2, r.top + r.height / 2);
    else if (ev.key === '-') zoom(1.25, r.left + r.width / 2, r.top + r.height / 2);
    else if (ev.key === '0') fit();
  });

  // Collapsing a box hides everything drawn inside it (nodes, memlets, inner boxes).
  var collapsed = {};
  function refresh() {
    elements.forEach(function (e) {
      var el = document.getElementById(e.id);
      if (!el) return;
      var hidden = e.in.some(function (c) { return collapsed[c]; });
      el.style.display = hidden ? 'none' : '';
      if (el.classList.contains('cluster')) el.classList.toggle('collapsed', !!collapsed[e.id]);
    });
  }
  var boxes = elements.filter(function (e) { return e.kind !== 'node' && e.kind !== 'memlet' && e.kind !== 'interstate'; });
  boxes.forEach(function (e) {
    var el = document.getElementById(e.id);
    if (!el) return;
    el.addEventListener('click', function (ev) {
      if (drag && drag.moved) return;
      ev.stopPropagation();
      collapsed[e.id] = !collapsed[e.id];
      refresh();
    });
  });
  document.getElementById('fit').onclick = fit;
  document.getElementById('expand').onclick = function () { collapsed = {}; refresh(); };
  function collapseScopes() {
    boxes.forEach(function (e) { if (e.kind === 'scope' || e.kind === 'nested') collapsed[e.id] = true; });
    refresh();
  }
  document.getElementById('collapse').onclick = collapseScopes;
  // A link to the page with #collapse=scopes opens it with every scope collapsed.
  if (window.location.hash === '#collapse=scopes') collapseScopes();

  // For tests and tools: how many of the listed elements the page holds.
  var drawn = 0, visible = 0, missing = [];
  elements.forEach(function (e) {
    var el = document.getElementById(e.id);
    if (!el) { missing.push(e.id); return; }
    if (e.kind !== 'node') return;
    drawn++;
    if (el.style.display !== 'none') visible++;
  });
  document.body.setAttribute('data-drawn-nodes', String(drawn));
  document.body.setAttribute('data-visible-nodes', String(visible));
  document.body.setAttribute('data-missing', missing.join(' '));
  document.body.setAttribute('data-ready', '1');
})();
)JS";

}  // namespace

std::string html_page(const ir::SDFG& sdfg, const Drawing& drawing) {
  std::string title = escape_html(sdfg.name);
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
          " - SDFG</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
  page += "<div id=\"toolbar\"><b>" + title +
          "</b> <button id=\"fit\">fit</button><button id=\"expand\">expand all</button>"
          "<button id=\"collapse\">collapse scopes</button><span id=\"hint\">drag to pan, wheel or +/- "
          "to zoom, click a box to collapse or expand it</span></div>\n";
  page += "<div id=\"view\">\n" + svg_element(drawing.svg) + "</div>\n";
  page += "<script type=\"application/json\" id=\"sdfg-elements\">" + elements_json(drawing) + "</script>\n";
  page += std::string("<script>") + kScript + "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace dace::render
