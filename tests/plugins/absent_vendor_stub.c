/* Link-time stand-in for a vendor library; kept out of every run-time search path. */
int dace_test_absent_vendor_function(void);

int dace_test_absent_vendor_function(void) { return 0; }
