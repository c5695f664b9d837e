/* A library that capi_render_module_test leaves out of the folder of fake_module.so, so that
 * loading the module fails on this missing dependency. */
int dace_test_render_dependency(void) { return 7; }
