#pragma once
// tests/mesh_reader_crash.h — how a crash of the mesh reader program (core/io/mesh.h) reads in an
// error, for the tests that make it crash (MECHSIM_MESH_READER_FAULT=crash). The reader dies of
// SIGSEGV's default action in every build, AddressSanitizer's too (app/mesh_reader_main.cpp).
constexpr const char* kReaderCrash = "the mesh reader crashed (signal 11, Segmentation fault); the file is probably corrupt";
