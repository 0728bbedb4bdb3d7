#pragma once
// tests/mesh_reader_crash.h — how a crash of the mesh reader program (core/io/mesh.h) reads in an
// error, for the tests that make it crash (MECHSIM_MESH_READER_FAULT=crash). Under AddressSanitizer
// (scripts/test.sh --sanitize) the sanitizer takes the signal, reports and exits with status 1.
#ifdef __SANITIZE_ADDRESS__
constexpr const char* kReaderCrash = "exited with status 1: AddressSanitizer:DEADLYSIGNAL";  // after the reader's path
#else
constexpr const char* kReaderCrash = "the mesh reader crashed (signal 11, Segmentation fault); the file is probably corrupt";
#endif
