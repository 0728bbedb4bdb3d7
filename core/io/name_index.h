#pragma once
// core/io/name_index.h — NameIndex: names of a growing list of specs, hashed, for the readers
// (the native format's, json_section.h; the MJCF importer's).
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace mechsim::io {

/// The names of a list of specs (bodies, joints, drivers, ...) the readers only append to, hashed
/// as they are looked up: a reference by name costs O(1) instead of a pass over the list, so a
/// file with 10^5 joints on one body reads in linear time instead of comparing 10^10 names. The
/// list may only grow between lookups (or shrink, which re-indexes it); renaming an element in place
/// is not seen.
class NameIndex {
 public:
  /// The element of `list` called `n` (the first, if several are), or nullptr. Indexes the
  /// elements appended since the last call; a list that shrank is indexed again from the start.
  template <class Spec>
  const Spec* find(const std::vector<Spec>& list, const std::string& n) {
    if (list.size() < indexed_) {
      at_.clear();
      indexed_ = 0;
    }
    for (; indexed_ < list.size(); ++indexed_) at_.emplace(list[indexed_].name, indexed_);
    const auto it = at_.find(n);
    return it == at_.end() ? nullptr : &list[it->second];
  }

 private:
  std::unordered_map<std::string, std::size_t> at_;
  std::size_t indexed_ = 0;
};

}  // namespace mechsim::io
