/* Stands in for libdace_render.so in capi_render_module_test: it needs a library that the
 * test does not provide (absent_dep.c; no run path), so the loader refuses it the way it
 * refuses the real module on a machine without Graphviz's libraries. */
int dace_test_render_dependency(void);

int dace_render_module_draw(const void* sdfg, int html, char** out, char** error) {
  (void)sdfg;
  (void)html;
  (void)out;
  (void)error;
  return dace_test_render_dependency();
}
