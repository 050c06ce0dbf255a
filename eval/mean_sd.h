#pragma once
// Mean and sample standard deviation of a stream of values (Welford's update: one pass, no
// cancellation from subtracting two large sums of squares). The statistics the eval tools print
// (chance DA over random-tree draws, head distances and entropies over words) all use it.
#include <cmath>

namespace synmt::eval {

class MeanSd {
 public:
  void add(double x) {
    ++n_;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(n_);
    m2_ += delta * (x - mean_);
  }
  long count() const { return n_; }
  double mean() const { return mean_; }  // 0 for no values
  // The sample sd (n - 1 in the denominator); 0 for fewer than two values.
  double sd() const { return n_ > 1 ? std::sqrt(m2_ / static_cast<double>(n_ - 1)) : 0.0; }

 private:
  long n_ = 0;
  double mean_ = 0, m2_ = 0;
};

}  // namespace synmt::eval
