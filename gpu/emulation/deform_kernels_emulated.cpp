// gpu/emulation/deform_kernels_emulated.cpp — gpu/deform_kernels.cu built by the C++ compiler, its CUDA
// runtime calls and kernel launches emulated on the CPU (gpu/emulation/cuda_emulation.h), for
// mechsim_gpu_emulated (gpu/CMakeLists.txt): the device code's logic checked against the CPU twin
// where no GPU is.
#include "gpu/deform_kernels.cu"
