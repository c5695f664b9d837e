// Runs the PTX the CUDA plugin generated for jacobi_2d / heat_3d through the plugin's own
// runtime (driver loaded with dlopen + cuGetProcAddress), replaying the host code the plugin
// generates (kernel k0(N, A, B), k1(N, B, A) per time step, grid = ceil(range / block)):
// 1. corpus inputs -> compare with the corpus's NumPy outputs; 2. a mid size against a C++
// loop reference; 3. timing at NPBench sizes (device-resident, median of reps).
#include <algorithm>
#include <cstdint>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

// The CUDA plugin's runtime (plugins/cuda/runtime/dace_cuda_runtime.h), linked in from its
// sources; declared here because bench code does not include plugin headers.
extern "C" {
int32_t dace_cuda_init(void);
const char* dace_cuda_error(void);
const char* dace_cuda_status(void);
void* dace_cuda_malloc(int64_t bytes);
int32_t dace_cuda_free(void* device);
int32_t dace_cuda_copy(void* dst, const void* src, int64_t bytes, int32_t kind);
int32_t dace_cuda_launch(const char* ptx, const char* kernel, int64_t grid_x, int64_t grid_y, int64_t grid_z,
                         int64_t block_x, int64_t block_y, int64_t block_z, int32_t shared_bytes, void** params);
int32_t dace_cuda_synchronize(void);
}
enum { DACE_CUDA_HOST_TO_DEVICE = 1, DACE_CUDA_DEVICE_TO_HOST = 2 };

static std::vector<char> slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(f)), {});
}
// .npy: header, then raw little-endian data (f8 or i8 here).
static std::vector<double> npy(const std::string& p) {
  std::vector<char> b = slurp(p);
  uint16_t hl; memcpy(&hl, &b[8], 2);
  std::string h(&b[10], hl);
  size_t off = 10 + hl, n = (b.size() - off) / 8;
  std::vector<double> v(n);
  if (h.find("<i8") != std::string::npos) { for (size_t i = 0; i < n; ++i) { int64_t x; memcpy(&x, &b[off + 8 * i], 8); v[i] = double(x); } }
  else memcpy(v.data(), &b[off], 8 * n);
  return v;
}
static std::vector<std::string> entries(const std::string& ptx) {
  std::vector<std::string> out; std::istringstream in(ptx); std::string line;
  while (std::getline(in, line)) if (line.rfind(".visible .entry ", 0) == 0) out.push_back(line.substr(16, line.find('(') - 16));
  return out;
}
struct Run { bool three_d; std::string ptx; std::vector<std::string> k; };
static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static void launch(const Run& r, int which, int64_t N, void* X, void* Y) {
  int64_t slots[3]; slots[0] = N; memcpy(&slots[1], &X, 8); memcpy(&slots[2], &Y, 8);
  void* params[3] = {&slots[0], &slots[1], &slots[2]};
  int64_t m = N - 2;
  int rc = r.three_d ? dace_cuda_launch(r.ptx.c_str(), r.k[which].c_str(), cdiv(m, 32), cdiv(m, 4), cdiv(m, 2), 32, 4, 2, 0, params)
                     : dace_cuda_launch(r.ptx.c_str(), r.k[which].c_str(), cdiv(m, 32), cdiv(m, 8), 1, 32, 8, 1, 0, params);
  if (rc) { printf("launch failed: %s\n", dace_cuda_error()); exit(1); }
}
static void steps(const Run& r, int64_t N, int64_t T, void* A, void* B) {
  for (int64_t t = 1; t < T; ++t) { launch(r, 0, N, A, B); launch(r, 1, N, B, A); }
}
static void reference(bool three_d, int64_t N, int64_t T, std::vector<double>& A, std::vector<double>& B) {
  auto step = [&](std::vector<double>& a, std::vector<double>& b) {
    if (!three_d) {
      for (int64_t i = 1; i < N - 1; ++i) for (int64_t j = 1; j < N - 1; ++j)
        b[i*N+j] = 0.2 * (a[i*N+j] + a[i*N+j-1] + a[i*N+j+1] + a[(i+1)*N+j] + a[(i-1)*N+j]);
    } else {
      auto at = [&](std::vector<double>& x, int64_t i, int64_t j, int64_t k) -> double& { return x[(i*N+j)*N+k]; };
      for (int64_t i = 1; i < N - 1; ++i) for (int64_t j = 1; j < N - 1; ++j) for (int64_t k = 1; k < N - 1; ++k)
        at(b,i,j,k) = 0.125*(at(a,i+1,j,k) - 2.0*at(a,i,j,k) + at(a,i-1,j,k)) + 0.125*(at(a,i,j+1,k) - 2.0*at(a,i,j,k) + at(a,i,j-1,k))
                    + 0.125*(at(a,i,j,k+1) - 2.0*at(a,i,j,k) + at(a,i,j,k-1)) + at(a,i,j,k);
    }
  };
  for (int64_t t = 1; t < T; ++t) { step(A, B); step(B, A); }
}
static double maxrel(const std::vector<double>& g, const std::vector<double>& e, double atol, double rtol, bool* ok) {
  double worst = 0; *ok = true;
  for (size_t i = 0; i < e.size(); ++i) { double d = std::fabs(g[i] - e[i]); worst = std::max(worst, d); if (d > atol + rtol * std::fabs(e[i])) *ok = false; }
  return worst;
}
static void* upload(const std::vector<double>& h) { void* d = dace_cuda_malloc(int64_t(h.size() * 8)); dace_cuda_copy(d, h.data(), int64_t(h.size() * 8), DACE_CUDA_HOST_TO_DEVICE); return d; }
static std::vector<double> download(void* d, size_t n) { std::vector<double> h(n); dace_cuda_copy(h.data(), d, int64_t(n * 8), DACE_CUDA_DEVICE_TO_HOST); return h; }

int main(int argc, char** argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: %s jacobi_2d|heat_3d PTX CORPUS_DIR N TSTEPS REPS\n", argv[0]);
    return 2;
  }
  std::string kernel = argv[1], ptxfile = argv[2], corpus = argv[3];
  int64_t bn = atoll(argv[4]), bt = atoll(argv[5]), reps = atoll(argv[6]);
  printf("device: %s\n", dace_cuda_status());
  if (dace_cuda_init()) { printf("init: %s\n", dace_cuda_error()); return 1; }
  std::vector<char> p = slurp(ptxfile); p.push_back(0);
  Run r{kernel == "heat_3d", std::string(p.data()), {}};
  r.k = entries(r.ptx);
  printf("%s: %zu kernels in %s\n", kernel.c_str(), r.k.size(), ptxfile.c_str());
  int failures = 0;
  { // 1. corpus case
    std::string d = corpus + "/" + kernel + "/";
    std::vector<double> A = npy(d + "in/A.npy"), B = npy(d + "in/B.npy");
    int64_t T = int64_t(npy(d + "in/TSTEPS.npy")[0]);
    int64_t N = int64_t(std::llround(r.three_d ? std::cbrt(double(A.size())) : std::sqrt(double(A.size()))));
    void* dA = upload(A); void* dB = upload(B);
    steps(r, N, T, dA, dB);
    std::vector<double> gA = download(dA, A.size()), gB = download(dB, B.size());
    bool okA, okB;
    double eA = maxrel(gA, npy(d + "out/A.npy"), 1e-12, 1e-10, &okA), eB = maxrel(gB, npy(d + "out/B.npy"), 1e-12, 1e-10, &okB);
    printf("corpus %s N=%lld TSTEPS=%lld vs NumPy: A %s (max abs err %.3g), B %s (%.3g)\n", kernel.c_str(), (long long)N, (long long)T,
           okA ? "match" : "MISMATCH", eA, okB ? "match" : "MISMATCH", eB);
    failures += !okA + !okB;
    dace_cuda_free(dA); dace_cuda_free(dB);
  }
  { // 2. mid size vs C++ loops
    int64_t N = r.three_d ? 37 : 203, T = 7;
    size_t n = size_t(r.three_d ? N * N * N : N * N);
    std::vector<double> A(n), B(n);
    for (size_t i = 0; i < n; ++i) { A[i] = double((7 * i + 3) % 17) / 17; B[i] = double((5 * i + 1) % 13) / 13; }
    void* dA = upload(A); void* dB = upload(B);
    steps(r, N, T, dA, dB);
    std::vector<double> gA = download(dA, n), gB = download(dB, n);
    reference(r.three_d, N, T, A, B);
    bool okA, okB;
    double eA = maxrel(gA, A, 1e-12, 1e-10, &okA), eB = maxrel(gB, B, 1e-12, 1e-10, &okB);
    printf("N=%lld TSTEPS=%lld vs C++ loops: A %s (%.3g), B %s (%.3g)\n", (long long)N, (long long)T, okA ? "match" : "MISMATCH", eA, okB ? "match" : "MISMATCH", eB);
    failures += !okA + !okB;
    dace_cuda_free(dA); dace_cuda_free(dB);
  }
  { // 3. timing
    size_t n = size_t(r.three_d ? bn * bn * bn : bn * bn);
    std::vector<double> A(n), B(n);
    for (size_t i = 0; i < n; ++i) { A[i] = double((7 * i + 3) % 17) / 17; B[i] = A[i]; }
    void* dA = upload(A); void* dB = upload(B);
    steps(r, bn, 3, dA, dB); dace_cuda_synchronize();
    std::vector<double> ms;
    for (int64_t k = 0; k < reps; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      steps(r, bn, bt, dA, dB); dace_cuda_synchronize();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    auto t0 = std::chrono::steady_clock::now();
    std::vector<double> h = download(dA, n); void* tmp = upload(h); dace_cuda_synchronize();
    double copy_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    double bytes = 2.0 * 2.0 * double(n) * 8 * double(bt - 1);  // read+write of each array per step pair (ideal)
    printf("TIMING %s N=%lld TSTEPS=%lld: median %.3f ms (min %.3f, %lld reps), %.1f GB/s effective; one array D2H+H2D %.3f ms\n",
           kernel.c_str(), (long long)bn, (long long)bt, ms[ms.size() / 2], ms[0], (long long)reps, bytes / (ms[ms.size() / 2] * 1e6), copy_ms);
    dace_cuda_free(dA); dace_cuda_free(dB); dace_cuda_free(tmp);
  }
  printf("%s\n", failures ? "FAILURES" : "ALL MATCH");
  return failures ? 1 : 0;
}
