#include "eval/span_arrays.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"

namespace synmt::eval {

void write_span_arrays(const std::string& path, const std::pair<std::string, std::string>& names, const std::string& format,
                       const SpanArrays& a) {
  AtomicPath out(path);
  {
    H5File f(out.temp_path(), H5File::Mode::Create);
    f.write(names.first, a.values);
    f.write(names.second, a.value_offsets);
    f.write("spans", a.spans);
    f.write("span_offsets", a.span_offsets);
    f.set_attribute("format", format);
    f.close();  // flushes: a full disk fails here, before the rename
  }
  out.commit();
}

SpanArrays read_span_arrays(const std::string& path, const std::pair<std::string, std::string>& names, const std::string& format,
                            const std::string& kind) {
  H5File f(path, H5File::Mode::Read);
  if (!f.has_attribute("format") || f.attribute("format") != format)
    throw InputError(path, 0, "not a " + kind + " (expected format " + format + ")");
  SpanArrays a;
  a.values = f.read_float(names.first);
  a.value_offsets = f.read_int64(names.second);
  a.spans = f.read_int32("spans");
  a.span_offsets = f.read_int64("span_offsets");
  check_offsets(path, a.value_offsets, a.values.size(), names.first + ": ");
  check_offsets(path, a.span_offsets, a.spans.size() / 2, "spans: ");
  if (a.span_offsets.size() != a.value_offsets.size() || a.spans.size() % 2 != 0)
    throw InputError(path, 0, "inconsistent offsets (truncated or corrupt " + kind + ")");
  return a;
}

}  // namespace synmt::eval
