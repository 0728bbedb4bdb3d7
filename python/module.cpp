// python/module.cpp — mechsim._mechsim, the compiled half of the Python package (docs/python.md):
// the engine's Model, Data and stages (core/sim), the command line's runs (core/io/runs.h), the
// spec and its values by path (core/spec_path.h). python/mechsim/__init__.py is the public layer
// over it (names, keyword arguments, docstrings, FileError).
//
// The GIL: every stage and run lets go of it while it computes, so other Python threads go on.
// Ctrl-C: a run asks between its rows whether Python has a pending signal (taking the GIL back for
// that at most every 20 ms) and stops; the wrapper then raises KeyboardInterrupt. One Data is one
// thread's at a time (core/sim/data.h); the Data object holds a mutex so that two Python threads
// using it at once wait for each other instead of corrupting it.
//
// The state arrays (Data.q, ...) are NumPy views, not copies, of buffers the Data object keeps
// current: after every stage the state is copied there once (a few hundred doubles), so a view taken
// once stays valid and current for the life of the Data, whatever the engine does with its own
// vectors (Eigen may give a vector new storage on assignment; a view of that would dangle). They
// are read-only: the state changes through the stages, which keep the constraints met.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/io/check_report.h"
#include "core/io/engine.h"
#include "core/io/load.h"
#include "core/io/runs.h"
#include "core/io/study.h"
#include "core/io/subprocess.h"
#include "core/io/write.h"
#include "core/spec_path.h"
#include "core/sim/stages.h"
#ifdef MECHSIM_HAVE_CUDA
#include "gpu/engine_device.h"
#endif

namespace py = pybind11;
using namespace mechsim;

namespace {

// ---- errors ----

/// mechsim.FileError (defined in __init__.py, handed over by _set_error_types).
py::object& fileErrorType() {
  static py::object t;
  return t;
}

/// A load that failed as the pending Python error mechsim.FileError(file, line, column, message, text).
void setFileError(const io::LoadError& e) {
  const io::Diagnostic& d = e.diagnostic();
  if (!fileErrorType()) {
    PyErr_SetString(PyExc_ValueError, e.what());
    return;
  }
  py::object err = fileErrorType()(d.file, d.line, d.col, d.message, e.what());
  PyErr_SetObject(fileErrorType().ptr(), err.ptr());
}
[[noreturn]] void raiseFileError(const io::LoadError& e) {
  setFileError(e);
  throw py::error_already_set();
}

/// Runs f with the GIL released; a LoadError becomes FileError, std::invalid_argument ValueError.
template <class F>
auto withoutGil(F&& f) {
  try {
    py::gil_scoped_release release;
    return f();
  } catch (const io::LoadError& e) {
    raiseFileError(e);
  }
}

// ---- the model ----

struct PyModel {
  std::shared_ptr<const sim::Model> m;
  std::string path;  // as given ("" when compiled from a spec in memory)
};

struct PySpec {
  std::shared_ptr<MechanismSpec> s;
};

/// The options a Python load compiles with: the command line's kinematics options (no slider range
/// search unless asked) with the deformable parts on, the file services, the device when built.
sim::Options pythonOptions(bool sliders, bool ranges, bool deformables, double deformStep) {
  sim::Options o = io::kinematicsOptions();
  o.sliders = sliders;
  o.rangeBudgetSeconds = ranges ? 0.25 : 0;
  o.deformables = deformables;
  o.deformStep = deformStep;
#ifdef MECHSIM_HAVE_CUDA
  o.device = gpu::engineDevice();
#endif
  return io::engineOptions(o);
}

PyModel compileModel(std::shared_ptr<const MechanismSpec> spec, const std::string& path, bool sliders, bool ranges,
                     bool deformables, double deformStep) {
  if (!(deformStep > 0)) throw py::value_error("deform_step must be > 0");
  return withoutGil([&] {
    auto m = std::make_shared<const sim::Model>(
        io::compileEngine(spec, pythonOptions(sliders, ranges, deformables, deformStep)));
    return PyModel{std::move(m), path};
  });
}

PyModel loadModel(const std::string& path, bool sliders, bool ranges, bool deformables, double deformStep) {
  auto spec = withoutGil([&] { return std::make_shared<const MechanismSpec>(io::readMechanismFile(path)); });
  return compileModel(std::move(spec), path, sliders, ranges, deformables, deformStep);
}

py::list bodiesOf(const sim::Model& m) {
  py::list out;
  for (const Body& b : m.file->bodies) {
    py::dict d;
    d["name"] = b.name;
    d["fixed"] = b.fixed;
    d["mass"] = b.mass;
    d["com"] = std::vector<double>{b.com.x(), b.com.y(), b.com.z()};
    std::vector<std::vector<double>> inertia(3, std::vector<double>(3));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) inertia[i][j] = b.inertia(i, j);
    d["inertia"] = inertia;
    d["position"] = std::vector<double>{b.pose0.position.x(), b.pose0.position.y(), b.pose0.position.z()};
    d["orientation"] = std::vector<double>{b.pose0.orientation.w(), b.pose0.orientation.x(), b.pose0.orientation.y(),
                                           b.pose0.orientation.z()};
    out.append(d);
  }
  return out;
}

py::list jointsOf(const sim::Model& m) {
  py::list out;
  const Model& f = *m.file;
  for (const Joint& j : f.joints) {
    py::dict d;
    d["name"] = j.name;
    d["type"] = std::string(toString(j.type));
    d["body1"] = f.bodies[j.body1].name;
    d["body2"] = f.bodies[j.body2].name;
    std::vector<std::string> coords;
    for (int k = 0; k < j.nCoords; ++k) coords.push_back(f.coordNames[j.firstCoord + k]);
    d["coordinates"] = coords;
    if (j.limits) d["limits"] = std::vector<double>{j.limits->first, j.limits->second};
    else d["limits"] = py::none();
    out.append(d);
  }
  return out;
}

py::list drivesOf(const sim::Model& m) {
  py::list out;
  for (const sim::DofInfo& dof : m.dofs) {
    py::dict d;
    d["name"] = dof.name;
    d["kind"] = dof.kind == sim::DofKind::Driver ? "driver" : "coordinate";
    d["joint"] = m.file->joints[dof.joint].name;
    d["coordinate"] = dof.coordinate;
    d["angular"] = dof.angular;
    d["range"] = std::vector<double>{dof.lower, dof.upper};
    d["expression"] = dof.expression;
    out.append(d);
  }
  return out;
}

py::list handlesOf(const sim::Model& m) {
  py::list out;
  for (const Handle& h : m.file->handles) {
    py::dict d;
    d["name"] = h.name;
    d["body"] = m.file->bodies[h.body].name;
    d["point"] = std::vector<double>{h.local.x(), h.local.y(), h.local.z()};  // body frame
    out.append(d);
  }
  return out;
}

py::list partsOf(const sim::Model& m) {
  py::list out;
  for (const sim::PartModel& p : m.parts) {
    py::dict d;
    d["name"] = p.name;
    d["vertices"] = p.model->vertexCount();
    d["tets"] = static_cast<int>(p.model->mesh.tets.size());
    d["method"] = std::string(deform::toString(p.solve.method));
    d["device"] = p.device;
    out.append(d);
  }
  return out;
}

// ---- the data ----

/// A sim::Data with the mirrors its NumPy views show (the class comment at the top).
struct PyData {
  std::shared_ptr<const sim::Model> m;
  sim::Data d;
  std::mutex busy;
  VecX q, qd, qdd, coords, coordVel, coordAcc;  // (nq) (nq) (nq) (nc) (nc) (nc)
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> bodyPos;   // (bodies × 3) world
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> bodyQuat;  // (bodies × 4) w x y z
  std::vector<VecX> partX;                                            // (parts) (3 nv)

  explicit PyData(std::shared_ptr<const sim::Model> model) : m(std::move(model)), d(sim::makeData(*m)) {
    const int nb = static_cast<int>(m->file->bodies.size());
    bodyPos.resize(nb, 3);
    bodyQuat.resize(nb, 4);
    partX.resize(d.parts.size());
    sync();
  }
  /// Copies the state into the mirrors (sizes never change: the views keep their memory).
  void sync() {
    auto copy = [](VecX& to, const VecX& from) {
      if (to.size() != from.size()) to.setZero(from.size());  // first time only: sizes are the model's
      to = from;
    };
    copy(q, d.rigid.q);
    copy(qd, d.rigid.qd);
    copy(qdd, d.rigid.qdd);
    copy(coords, d.rigid.coords);
    copy(coordVel, d.rigid.coordVel);
    copy(coordAcc, d.rigid.coordAcc);
    const Model& f = *m->file;
    for (int b = 0; b < bodyPos.rows(); ++b) {
      const Pose p = bodyPose(f, d.rigid.q, b);
      bodyPos.row(b) = p.position.transpose();
      bodyQuat.row(b) << p.orientation.w(), p.orientation.x(), p.orientation.y(), p.orientation.z();
    }
    for (std::size_t k = 0; k < partX.size(); ++k) copy(partX[k], d.parts[k].x);
  }
};

/// A read-only view of n doubles at p (shape, strides in doubles) kept alive by `owner`.
py::array view(const double* p, std::vector<py::ssize_t> shape, py::handle owner) {
  std::vector<py::ssize_t> strides(shape.size(), sizeof(double));
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape[i + 1];
  py::array a(py::dtype::of<double>(), shape, strides, p, owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

void checkPair(const PyModel& pm, const PyData& pd) {
  if (pm.m != pd.m) throw py::value_error("this Data was made by another Model (use model.make_data())");
}

/// Runs a stage on d with the GIL released and d's lock held, then syncs the mirrors.
template <class F>
auto stage(PyData& pd, F&& f) {
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(pd.busy);
  auto r = f();
  pd.sync();
  return r;
}

// ---- runs ----

/// A RunStop that sees Ctrl-C: takes the GIL at most every 20 ms and asks for pending signals.
struct SignalStop {
  std::chrono::steady_clock::time_point next = std::chrono::steady_clock::now();
  bool interrupted = false;
  bool operator()() {
    const auto now = std::chrono::steady_clock::now();
    if (now < next) return false;
    next = now + std::chrono::milliseconds(20);
    py::gil_scoped_acquire acquire;
    if (PyErr_CheckSignals() != 0) interrupted = true;  // the KeyboardInterrupt stays set
    return interrupted;
  }
};

/// A run with the GIL released and Ctrl-C seen; KeyboardInterrupt raised when it stopped there.
template <class F>
std::shared_ptr<io::RunResult> runWithSignals(F&& f) {
  auto stop = std::make_shared<SignalStop>();
  std::shared_ptr<io::RunResult> r;
  {
    py::gil_scoped_release release;
    try {
      r = std::make_shared<io::RunResult>(f([stop] { return (*stop)(); }));
    } catch (const io::LoadError& e) {
      py::gil_scoped_acquire acquire;
      raiseFileError(e);
    }
  }
  if (stop->interrupted) throw py::error_already_set();  // PyErr_CheckSignals left KeyboardInterrupt set
  return r;
}

std::optional<deform::Method> methodArg(const std::optional<std::string>& s) {
  if (!s) return std::nullopt;
  auto m = deform::methodFromString(*s);
  if (!m) throw py::value_error("unknown method '" + *s + "' (newton, vbd, jacobi, jgs2-jacobi, jgs2-gs)");
  return m;
}

}  // namespace

PYBIND11_MODULE(_mechsim, mod) {
  mod.doc() = "mechsim's engine (compiled); use the package mechsim, not this module";
#ifdef MECHSIM_HELPER_INSTALL_DIR
  // Installed: the helper programs (mesh reader, surface mesher) are in the installed bin/ folder.
  io::setHelperDirectory(MECHSIM_HELPER_INSTALL_DIR);
#endif
  mod.def("_set_error_types", [](py::object fileError) { fileErrorType() = std::move(fileError); });
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const io::LoadError& e) {
      setFileError(e);
    }
  });

  // ---- Spec ----
  py::class_<PySpec>(mod, "Spec")
      .def("get",
           [](const PySpec& s, const std::string& path) -> py::object {
             const SpecValue v = getSpecValue(*s.s, path);
             if (v.text) return py::str(*v.text);
             if (v.numbers.empty()) return py::none();  // an optional value not set
             if (v.count == 1) return py::float_(v.numbers[0]);
             return py::cast(v.numbers);
           })
      .def("set",
           [](PySpec& s, const std::string& path, py::object value) {
             SpecValue v;
             if (py::isinstance<py::str>(value)) {
               v.text = value.cast<std::string>();
             } else if (py::isinstance<py::bool_>(value)) {
               throw py::type_error("spec path '" + path + "': expected a number, got bool");
             } else if (!py::isinstance<py::sequence>(value) && py::hasattr(value, "__float__")) {
               v.numbers = {py::float_(value).cast<double>()};  // int, float, NumPy scalars
             } else {
               try {
                 v.numbers = value.cast<std::vector<double>>();
               } catch (const py::cast_error&) {
                 throw py::type_error("spec path '" + path + "': expected a number, a sequence of numbers or a text, got " +
                                      py::str(value.get_type().attr("__name__")).cast<std::string>());
               }
             }
             setSpecValue(*s.s, path, v);
           })
      .def("paths", [](const PySpec& s) { return specPaths(*s.s); })
      .def("names",
           [](const PySpec& s, const std::string& kind) {
             std::vector<std::string> n;
             auto add = [&](const auto& items) {
               for (const auto& x : items) n.push_back(x.name);
             };
             if (kind == "bodies") add(s.s->bodies);
             else if (kind == "joints") add(s.s->joints);
             else if (kind == "drivers") add(s.s->drivers);
             else if (kind == "handles") add(s.s->handles);
             else if (kind == "deformables") add(s.s->deformables);
             else if (kind == "springs") add(s.s->dynamics.springs);
             else if (kind == "jointSprings") add(s.s->dynamics.jointSprings);
             else if (kind == "motors") add(s.s->dynamics.motors);
             else throw py::value_error("unknown kind '" + kind + "'");
             return n;
           })
      .def("copy", [](const PySpec& s) { return PySpec{std::make_shared<MechanismSpec>(*s.s)}; })
      .def("save",
           [](const PySpec& s, const std::string& path) {
             py::gil_scoped_release release;
             io::writeMechanismFile(*s.s, path);
           })
      .def("text", [](const PySpec& s) { return io::writeMechanism(*s.s); })
      .def_property_readonly("name", [](const PySpec& s) { return s.s->name; })
      .def_property_readonly("file", [](const PySpec& s) { return s.s->sourceFile; })
      .def_property_readonly("warnings", [](const PySpec& s) { return s.s->warnings; });
  mod.def("load_spec", [](const std::string& path) {
    return withoutGil([&] { return PySpec{std::make_shared<MechanismSpec>(io::readMechanismFile(path))}; });
  });

  // ---- Model ----
  py::class_<PyModel>(mod, "Model")
      .def_property_readonly("name", [](const PyModel& pm) { return pm.m->file->name; })
      .def_property_readonly("path", [](const PyModel& pm) { return pm.path; })
      .def_property_readonly("nq", [](const PyModel& pm) { return pm.m->nq(); })
      .def_property_readonly("coordinate_names", [](const PyModel& pm) { return pm.m->file->coordNames; })
      .def_property_readonly("bodies", [](const PyModel& pm) { return bodiesOf(*pm.m); })
      .def_property_readonly("joints", [](const PyModel& pm) { return jointsOf(*pm.m); })
      .def_property_readonly("drivers", [](const PyModel& pm) { return drivesOf(*pm.m); })
      .def_property_readonly("handles", [](const PyModel& pm) { return handlesOf(*pm.m); })
      .def_property_readonly("parts", [](const PyModel& pm) { return partsOf(*pm.m); })
      .def_property_readonly("message", [](const PyModel& pm) { return pm.m->message; })
      .def_property_readonly("timestep", [](const PyModel& pm) { return pm.m->file->dynamics.timestep; })
      .def("spec",
           [](const PyModel& pm) -> py::object {
             if (!pm.m->spec) return py::none();
             return py::cast(PySpec{std::make_shared<MechanismSpec>(*pm.m->spec)});
           })
      .def("check_json",
           [](const PyModel& pm) {
             py::gil_scoped_release release;
             return io::checkReportJson(pm.path, *pm.m->spec, *pm.m->file);
           })
      .def("make_data", [](const PyModel& pm) {
        return withoutGil([&] { return std::make_unique<PyData>(pm.m); });
      });
  mod.def("load", &loadModel, py::arg("path"), py::arg("sliders"), py::arg("ranges"), py::arg("deformables"),
          py::arg("deform_step"));
  mod.def(
      "compile",
      [](const PySpec& s, bool sliders, bool ranges, bool deformables, double deformStep) {
        return compileModel(std::make_shared<const MechanismSpec>(*s.s), s.s->sourceFile, sliders, ranges, deformables,
                            deformStep);
      },
      py::arg("spec"), py::arg("sliders"), py::arg("ranges"), py::arg("deformables"), py::arg("deform_step"));

  // ---- Data ----
  py::class_<PyData>(mod, "Data")
      .def_property_readonly("t", [](const PyData& pd) { return pd.d.rigid.t; })
      .def_property_readonly("q", [](py::object self) {
        auto& pd = self.cast<PyData&>();
        return view(pd.q.data(), {pd.q.size()}, self);
      })
      .def_property_readonly("qdot", [](py::object self) {
        auto& pd = self.cast<PyData&>();
        return view(pd.qd.data(), {pd.qd.size()}, self);
      })
      .def_property_readonly("qddot", [](py::object self) {
        auto& pd = self.cast<PyData&>();
        return view(pd.qdd.data(), {pd.qdd.size()}, self);
      })
      .def_property_readonly("coords", [](py::object self) {
        auto& pd = self.cast<PyData&>();
        return view(pd.coords.data(), {pd.coords.size()}, self);
      })
      .def_property_readonly("coord_vel", [](py::object self) {
        auto& pd = self.cast<PyData&>();
        return view(pd.coordVel.data(), {pd.coordVel.size()}, self);
      })
      .def_property_readonly("coord_acc", [](py::object self) {
        auto& pd = self.cast<PyData&>();
        return view(pd.coordAcc.data(), {pd.coordAcc.size()}, self);
      })
      .def_property_readonly("body_pos", [](py::object self) {
        auto& pd = self.cast<PyData&>();
        return view(pd.bodyPos.data(), {pd.bodyPos.rows(), 3}, self);
      })
      .def_property_readonly("body_quat", [](py::object self) {
        auto& pd = self.cast<PyData&>();
        return view(pd.bodyQuat.data(), {pd.bodyQuat.rows(), 4}, self);
      })
      .def("part_positions",
           [](py::object self, int k) {
             auto& pd = self.cast<PyData&>();
             if (k < 0 || k >= static_cast<int>(pd.partX.size())) throw py::index_error("no deformable part " + std::to_string(k));
             return view(pd.partX[k].data(), {pd.partX[k].size() / 3, 3}, self);
           })
      .def_property_readonly("dof_values",
                             [](const PyData& pd) {
                               std::vector<double> v;
                               for (const sim::DofInfo& dof : pd.m->dofs) v.push_back(pd.d.inputs->value[dof.driver]);
                               return v;
                             })
      .def_property_readonly("dynamic", [](const PyData& pd) { return sim::isDynamic(pd.d); })
      .def_property_readonly("message", [](const PyData& pd) { return pd.d.message; })
      .def_property_readonly("converged", [](const PyData& pd) { return pd.d.rigid.stats.converged; })
      .def_property_readonly("singular", [](const PyData& pd) { return pd.d.rigid.stats.singular; })
      .def_property_readonly("residual", [](const PyData& pd) { return pd.d.rigid.stats.residual; })
      .def_property_readonly("attach_error", [](const PyData& pd) { return pd.d.attachError; })
      .def_property_readonly("energy",
                             [](const PyData& pd) -> py::object {
                               if (!pd.d.dynamics) return py::none();
                               const EnergyReport e = pd.d.dynamics->energy();
                               py::dict r;
                               r["kinetic"] = e.kinetic;
                               r["potential"] = e.potential;
                               r["total"] = e.total();
                               return r;
                             })
      .def("point",
           [](const PyData& pd, const std::string& body, std::vector<double> local) {
             const int b = pd.m->file->findBody(body);
             if (b < 0) throw py::key_error("no body named '" + body + "'");
             if (local.size() != 3) throw py::value_error("expected a point [x, y, z]");
             const Vec3 p = bodyPose(*pd.m->file, pd.d.rigid.q, b).apply(Vec3(local[0], local[1], local[2]));
             return std::vector<double>{p.x(), p.y(), p.z()};
           })
      .def("handle", [](const PyData& pd, const std::string& name) {
        const int h = pd.m->findHandle(name);
        if (h < 0) throw py::key_error("no handle named '" + name + "'");
        const Handle& hd = pd.m->file->handles[h];
        const Vec3 p = bodyPose(*pd.m->file, pd.d.rigid.q, hd.body).apply(hd.local);
        return std::vector<double>{p.x(), p.y(), p.z()};
      });

  // ---- stages (each returns whether it succeeded; Data.message says why not) ----
  mod.def("_assemble", [](const PyModel& pm, PyData& pd) {
    checkPair(pm, pd);
    stage(pd, [&] {
      sim::assemble(*pm.m, pd.d);
      return true;
    });
  });
  mod.def("_set_dof", [](const PyModel& pm, PyData& pd, const std::string& name, double value) {
    checkPair(pm, pd);
    if (pm.m->findDof(name) < 0) {
      std::string names;
      for (const sim::DofInfo& dof : pm.m->dofs) names += (names.empty() ? "" : ", ") + dof.name;
      throw py::key_error("no degree of freedom named '" + name + "' (there are: " + (names.empty() ? "none" : names) + ")");
    }
    if (!std::isfinite(value)) throw py::value_error("the value of '" + name + "' is not finite");
    return stage(pd, [&] { return sim::setDof(*pm.m, pd.d, name, value); });
  });
  mod.def("_set_follows", [](const PyModel& pm, PyData& pd, const std::string& name, bool follows) {
    checkPair(pm, pd);
    const int k = pm.m->findDof(name);
    if (k < 0) throw py::key_error("no degree of freedom named '" + name + "'");
    return stage(pd, [&] { return sim::setDofFollows(*pm.m, pd.d, k, follows); });
  });
  mod.def("_advance", [](const PyModel& pm, PyData& pd, double dt) {
    checkPair(pm, pd);
    if (!(dt > 0) || !std::isfinite(dt)) throw py::value_error("need dt > 0");
    return stage(pd, [&] { return sim::advance(*pm.m, pd.d, dt); });
  });
  mod.def("_drag",
          [](const PyModel& pm, PyData& pd, py::object what, std::vector<double> target, const std::string& method,
             bool end) {
            checkPair(pm, pd);
            if (target.size() != 3) throw py::value_error("expected a target [x, y, z]");
            for (double x : target)
              if (!std::isfinite(x)) throw py::value_error("the target is not finite");
            sim::DragMethod dm;
            if (method == "newton") dm = sim::DragMethod::Newton;
            else if (method == "anm") dm = sim::DragMethod::Anm;
            else throw py::value_error("unknown drag method '" + method + "' (newton, anm)");
            std::string handle;
            DragPoint point;
            if (py::isinstance<py::str>(what)) {
              handle = what.cast<std::string>();
              if (pm.m->findHandle(handle) < 0) throw py::key_error("no handle named '" + handle + "'");
            } else {
              auto bp = what.cast<std::pair<std::string, std::vector<double>>>();
              point.body = pm.m->file->findBody(bp.first);
              if (point.body < 0) throw py::key_error("no body named '" + bp.first + "'");
              if (bp.second.size() != 3) throw py::value_error("expected a body point [x, y, z]");
              point.local = Vec3(bp.second[0], bp.second[1], bp.second[2]);
            }
            return stage(pd, [&] {
              sim::setDragMethod(*pm.m, pd.d, dm);
              if (!pd.d.dragging) {
                const bool ok = handle.empty() ? sim::beginDrag(*pm.m, pd.d, point) : sim::beginDrag(*pm.m, pd.d, handle);
                if (!ok) return std::make_tuple(false, false, 0.0, 0);
              }
              const bool ok = sim::dragTo(*pm.m, pd.d, Vec3(target[0], target[1], target[2]));
              const DragResult r = pd.d.lastDrag;
              if (end) sim::endDrag(*pm.m, pd.d);
              return std::make_tuple(ok, r.reached, r.distance, r.iterations);
            });
          });
  mod.def("_end_drag", [](const PyModel& pm, PyData& pd) {
    checkPair(pm, pd);
    stage(pd, [&] {
      sim::endDrag(*pm.m, pd.d);
      return true;
    });
  });
  mod.def("_set_dynamic", [](const PyModel& pm, PyData& pd, bool on) {
    checkPair(pm, pd);
    return stage(pd, [&] { return sim::setDynamic(*pm.m, pd.d, on); });
  });
  mod.def("_step", [](const PyModel& pm, PyData& pd, double h) {
    checkPair(pm, pd);
    if (!(h > 0) || !std::isfinite(h)) throw py::value_error("need h > 0");
    return stage(pd, [&] {
      if (!pd.d.dynamics && !sim::setDynamic(*pm.m, pd.d, true)) return false;
      return sim::stepDynamics(*pm.m, pd.d, h);
    });
  });
  mod.def("_step_n", [](const PyModel& pm, PyData& pd, double h, long n) {
    // n steps in one call: the C++ side of the step-call benchmark (bench_python.py).
    checkPair(pm, pd);
    return stage(pd, [&] {
      if (!pd.d.dynamics && !sim::setDynamic(*pm.m, pd.d, true)) return false;
      for (long i = 0; i < n; ++i)
        if (!sim::stepDynamics(*pm.m, pd.d, h)) return false;
      return true;
    });
  });
  mod.def("_step_deformables", [](const PyModel& pm, PyData& pd) {
    checkPair(pm, pd);
    if (pm.m->parts.empty()) throw py::value_error("the model has no deformable parts (load it with deformables=True)");
    return stage(pd, [&] { return sim::stepDeformables(*pm.m, pd.d); });
  });
  mod.def("_reset_deformables", [](const PyModel& pm, PyData& pd) {
    checkPair(pm, pd);
    stage(pd, [&] {
      sim::resetDeformables(*pm.m, pd.d);
      return true;
    });
  });
  mod.def("_analyse", [](const PyModel& pm, PyData& pd) {
    checkPair(pm, pd);
    const MobilityReport r = stage(pd, [&] { return sim::analyse(*pm.m, pd.d); });
    py::dict out;
    out["grubler_dof"] = r.grubler;
    out["rank"] = r.rank;
    out["dof"] = r.dof;
    out["dof_driven"] = r.dofDriven;
    out["redundant"] = r.redundant;
    out["residual"] = r.residual;
    out["singular"] = r.singular;
    return out;
  });
  mod.def("_deform_step_of", [](const PyModel& pm) -> py::object {
    if (pm.m->parts.empty()) return py::none();
    return py::float_(pm.m->parts.front().model->h);
  });

  // ---- runs ----
  py::class_<io::RunResult, std::shared_ptr<io::RunResult>>(mod, "RunResult")
      .def_readonly("command", &io::RunResult::command)
      .def_readonly("columns", &io::RunResult::columns)
      .def_readonly("failure", &io::RunResult::failure)
      .def_readonly("summary", &io::RunResult::summary)
      .def_readonly("warnings", &io::RunResult::warnings)
      .def_readonly("text_column", &io::RunResult::textColumn)
      .def_readonly("text", &io::RunResult::text)
      .def_property_readonly("rows", &io::RunResult::rows)
      .def("column",
           [](py::object self, int c) {
             auto& r = self.cast<io::RunResult&>();
             if (c < 0 || c >= static_cast<int>(r.values.size()) || c == r.textColumn) throw py::index_error("no such column");
             return view(r.values[c].data(), {static_cast<py::ssize_t>(r.values[c].size())}, self);
           })
      .def("csv", &io::RunResult::csv)
      .def("json", &io::RunResult::json)
      .def("write", [](const io::RunResult& r, const std::string& path, bool json) {
        std::string text = json ? r.json() : r.csv();
        py::gil_scoped_release release;
        io::writeFileAtomically(path, text);
      });
  mod.def("_kinematics", [](const PyModel& pm, double tEnd, double dt) {
    return runWithSignals([&](io::RunStop stop) { return io::runKinematics(*pm.m, tEnd, dt, stop); });
  });
  mod.def("_simulate", [](const PyModel& pm, double tEnd, std::optional<double> dt) {
    return runWithSignals([&](io::RunStop stop) { return io::runSimulate(*pm.m, tEnd, dt, stop); });
  });
  mod.def("_deform",
          [](const PyModel& pm, double tEnd, double dt, std::optional<std::string> method,
             std::optional<std::string> control, int modes, const std::string& backend, const std::string& vtk,
             long vtkEvery) {
            io::DeformSettings s;
            s.method = methodArg(method);
            if (control) {
              s.control = deform::accelerationFromString(*control);
              if (!s.control) throw py::value_error("unknown step control '" + *control + "' (none, line-search, subspace)");
            }
            if (modes != 0 && (modes < 64 || modes > 1024)) throw py::value_error("modes: expected an integer from 64 to 1024");
            s.modes = modes;
            if (backend == "auto") s.backend = sim::Backend::Auto;
            else if (backend == "cpu") s.backend = sim::Backend::Cpu;
            else if (backend == "cuda") s.backend = sim::Backend::Cuda;
            else throw py::value_error("unknown backend '" + backend + "' (auto, cpu, cuda)");
            s.vtkDir = vtk;
            s.vtkEvery = vtkEvery;
            io::runSteps("deform", tEnd, dt);
            if (!pm.m->spec) throw py::value_error("the model has no spec to compile its parts from");
            if (pm.m->spec->deformables.empty())
              throw py::value_error(pm.m->spec->sourceFile + " has no deformable parts (\"deformables\")");
            // The parts as the command compiles them: steps of dt, the settings' solver.
            return runWithSignals([&](io::RunStop stop) {
              sim::Options o = io::deformOptions(dt, s);
#ifdef MECHSIM_HAVE_CUDA
              o.device = gpu::engineDevice();
#endif
              const sim::Model m = io::compileEngine(pm.m->spec, io::engineOptions(o));
              return io::runDeform(m, tEnd, dt, s, stop);
            });
          });
  // ---- studies (core/io/study.h; mechsim/study.py runs them) ----
  py::class_<io::StudyPlan, std::shared_ptr<io::StudyPlan>>(mod, "StudyPlan")
      .def(py::init([](const std::string& path) {
        return withoutGil([&] { return std::make_shared<io::StudyPlan>(path); });
      }))
      .def_property_readonly("path", &io::StudyPlan::path)
      .def_property_readonly("mechanism", &io::StudyPlan::mechanism)
      .def_property_readonly("analysis", &io::StudyPlan::analysis)
      .def_property_readonly("runs", &io::StudyPlan::runs)
      .def_property_readonly("columns", &io::StudyPlan::columns)
      .def_property_readonly("variables",
                             [](const io::StudyPlan& p) {
                               std::vector<std::string> n;
                               for (const auto& v : p.variables()) n.push_back(v.name);
                               return n;
                             })
      .def_property_readonly("outputs",
                             [](const io::StudyPlan& p) {
                               std::vector<std::string> n;
                               for (const auto& o : p.outputs()) n.push_back(o.name);
                               return n;
                             })
      .def("values", &io::StudyPlan::values)
      .def("run", [](const io::StudyPlan& p, long i) {
        // (run, values, outputs, ok, error); KeyboardInterrupt when Ctrl-C stopped it.
        if (i < 0 || i >= p.runs()) throw py::index_error("run " + std::to_string(i) + " is not in the study");
        auto stop = std::make_shared<SignalStop>();
        io::StudyRow row;
        {
          py::gil_scoped_release release;
          row = p.run(i, [stop] { return (*stop)(); });
        }
        if (stop->interrupted) throw py::error_already_set();
        return py::make_tuple(row.run, row.values, row.outputs, row.ok, row.error);
      });
  py::class_<io::StudyTable>(mod, "StudyTable")
      .def(py::init([](const std::string& path, const io::StudyPlan& plan, bool resume, bool overwrite) {
             return std::make_unique<io::StudyTable>(path, plan, resume, overwrite);
           }),
           py::arg("path"), py::arg("plan"), py::arg("resume"), py::arg("overwrite"))
      .def("done", &io::StudyTable::done)
      .def_property_readonly("done_count", &io::StudyTable::doneCount)
      .def("append",
           [](io::StudyTable& t, long run, std::vector<double> values, std::vector<double> outputs, bool ok,
              const std::string& error) {
             io::StudyRow row{run, std::move(values), std::move(outputs), ok, error};
             py::gil_scoped_release release;
             t.append(row);
           })
      .def("finish", [](io::StudyTable& t) {
        py::gil_scoped_release release;
        t.finish();
      });
  mod.attr("_has_cuda") =
#ifdef MECHSIM_HAVE_CUDA
      true;
#else
      false;
#endif
}
