#pragma once
// core/io/read_in_process.h — readInThisProcess(): the program reads mesh files with Assimp and
// fills surfaces with Gmsh in its own process when it has no helper program (core/io/in_process.h).
// In the library mechsim_in_process, which links both.
namespace mechsim::io {

void readInThisProcess();

}  // namespace mechsim::io
