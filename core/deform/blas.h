#pragma once
// core/deform/blas.h — the BLAS routines core/deform calls directly (Fortran interface,
// column-major), with C++ wrappers taking their arguments by value. They are the library CHOLMOD
// uses (OpenBLAS where installed, threaded by its own settings): the selected inverse's supernode
// algebra (selected_inverse.cpp) and the block Krylov basis's products (low_modes.cpp).
namespace mechsim::deform::blas {

extern "C" {
void dtrsm_(const char* side, const char* uplo, const char* trans, const char* diag, const int* m, const int* n,
            const double* alpha, const double* a, const int* lda, double* b, const int* ldb);
void dsymm_(const char* side, const char* uplo, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* b, const int* ldb, const double* beta, double* c, const int* ldc);
void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha, const double* a,
            const int* lda, const double* beta, double* c, const int* ldc);
void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc);
}

inline void trsm(char side, char uplo, char trans, char diag, int m, int n, double alpha, const double* a, int lda,
                 double* b, int ldb) {
  dtrsm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, a, &lda, b, &ldb);
}
inline void symm(char side, char uplo, int m, int n, double alpha, const double* a, int lda, const double* b, int ldb,
                 double beta, double* c, int ldc) {
  dsymm_(&side, &uplo, &m, &n, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}
inline void syrk(char uplo, char trans, int n, int k, double alpha, const double* a, int lda, double beta, double* c,
                 int ldc) {
  dsyrk_(&uplo, &trans, &n, &k, &alpha, a, &lda, &beta, c, &ldc);
}
/// C = alpha op(A) op(B) + beta C, op(A) m × k, op(B) k × n.
inline void gemm(char ta, char tb, int m, int n, int k, double alpha, const double* a, int lda, const double* b,
                 int ldb, double beta, double* c, int ldc) {
  dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}

}  // namespace mechsim::deform::blas
