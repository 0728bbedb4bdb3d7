// core/collision/compile_contact.cpp — the "contact" part of compile() (compile.h): ContactSpec →
// Model::contact. Part of mechsim_core (compile() calls it); the collision code itself is the
// separate target mechsim_collision.
#include <algorithm>

#include "core/compile.h"

namespace mechsim {

void compileContact(const MechanismSpec& spec, Model& m) {
  // Planes are half-spaces of fixed bodies only (a moving one would have no finite mass or bounds).
  for (size_t b = 0; b < spec.bodies.size(); ++b)
    for (size_t s = 0; s < spec.bodies[b].shapes.size(); ++s)
      if (spec.bodies[b].shapes[s].type == ShapeType::Plane && !spec.bodies[b].fixed)
        throw SpecError("bodies[" + std::to_string(b) + "].shapes[" + std::to_string(s) + "].type",
                        "a plane shape is allowed on a fixed body only (the ground)");
  const ContactSpec& c = spec.contact;
  ContactOptions& o = m.contact;
  o = ContactOptions{};
  o.enabled = c.present && c.enabled.value_or(true);
  o.pgs = c.solver && *c.solver == "pgs";
  if (c.friction) o.friction = *c.friction;
  if (c.torsionalFriction) o.torsionalFriction = *c.torsionalFriction;
  if (c.rollingFriction) o.rollingFriction = *c.rollingFriction;
  if (c.restitution) o.restitution = *c.restitution;
  if (c.restitutionVelocity) o.restitutionVelocity = *c.restitutionVelocity;
  if (c.alpha) o.alpha = *c.alpha;
  if (c.iterations) o.iterations = *c.iterations;
  if (c.tolerance) o.tolerance = *c.tolerance;
  if (c.erp) o.erp = *c.erp;
  if (c.slop) o.slop = *c.slop;
  if (c.margin) o.margin = *c.margin;
  auto key = [](int a, int b) { return std::make_pair(std::min(a, b), std::max(a, b)); };
  if (!c.jointedCollide.value_or(false))
    for (const Joint& j : m.joints) o.excluded.push_back(key(j.body1, j.body2));
  for (size_t i = 0; i < c.exclude.size(); ++i) {
    const int a = m.findBody(c.exclude[i].first), b = m.findBody(c.exclude[i].second);
    if (a < 0 || b < 0) throw SpecError("contact.exclude[" + std::to_string(i) + "]", "unknown body");
    o.excluded.push_back(key(a, b));
  }
  std::sort(o.excluded.begin(), o.excluded.end());
  o.excluded.erase(std::unique(o.excluded.begin(), o.excluded.end()), o.excluded.end());
}

}  // namespace mechsim
