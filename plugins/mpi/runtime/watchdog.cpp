// The watchdog of blocking MPI operations: with DACE_MPI_TIMEOUT set, every operation that
// can block runs in its nonblocking form and is polled here, so that a deadlock (a receive
// without a matching send, ranks that reach different collectives) becomes a failure of the
// node that waits, with a message, instead of a hang.
#include <sched.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "internal.h"

namespace dace_mpi {

bool timeout_from_environment(double& seconds, std::string& message) {
  seconds = 0;
  const char* text = std::getenv("DACE_MPI_TIMEOUT");
  if (!text || !*text) return true;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !std::isfinite(v) || v < 0) {
    message = std::string("DACE_MPI_TIMEOUT=") + text + " is not a number of seconds >= 0";
    return false;
  }
  seconds = v;
  return true;
}

int32_t mpi_failure(State* s, int rc, const std::string& what) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) std::snprintf(text, sizeof text, "MPI error %d", rc);
  fail(s, what + ": " + text);
  return rc;
}

int32_t await(State* s, int n, MPI_Request* requests, MPI_Status* statuses, bool cancellable,
              const std::string& what) {
  MPI_Status* st = statuses ? statuses : MPI_STATUSES_IGNORE;
  if (s->timeout <= 0) return mpi_status(s, MPI_Waitall(n, requests, st), [&] { return what; });
  const double start = MPI_Wtime();
  for (;;) {
    int done = 0;
    int rc = MPI_Testall(n, requests, &done, st);
    if (rc != MPI_SUCCESS) return mpi_failure(s, rc, what);
    if (done) return 0;
    if (MPI_Wtime() - start > s->timeout) break;
    // The ranks may share cores (oversubscribed): let the peer we wait for run.
    sched_yield();
  }
  if (cancellable)
    for (int i = 0; i < n; ++i)
      if (requests[i] != MPI_REQUEST_NULL) {
        MPI_Cancel(&requests[i]);
        MPI_Request_free(&requests[i]);
      }
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", s->timeout);
  return fail(s, what + " did not complete within DACE_MPI_TIMEOUT=" + limit +
                     " s: a deadlock? (a receive without a matching send, a send nobody receives, or ranks "
                     "that do not all reach the same collective)");
}

}  // namespace dace_mpi
