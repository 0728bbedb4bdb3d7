// core/deform/parallel.cpp — the thread count of the deformable solvers' loops (see the header).
#include "core/deform/parallel.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace mechsim::deform {

int threadCount() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

void setThreadCount(int n) {
#ifdef _OPENMP
  // OpenMP's count is per calling thread: the default is read before the first change.
  static const int initial = omp_get_max_threads();
  omp_set_num_threads(n > 0 ? n : initial);
#else
  (void)n;
#endif
}

int threadIndex() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

}  // namespace mechsim::deform
