#pragma once
// Teacher-forced analysis dumps: every sentence of a binarised split (its gold target forced) goes
// through forward() with analysis on, and the named tensors are written per sentence, trimmed to
// the sentence's source / target length, as one HDF5 file (format synmt-analysis-1):
//   <name>, <name>_offsets, <name>_shapes   a ragged float32 array per tensor (core/ragged.h)
//   attribute <name>_axes                   its axes after the sentence axis ("tgt src", "4 src src")
//   word_spans, _offsets, _shapes           per sentence (words x 2) int32: first and last sub-word of
//                                           each word (when the split has word spans; synmt-trees
//                                           collapses pieces with them)
// ('/' in a name, as an ensemble member's "m0/...", is written as '.').
#include <string>
#include <vector>

#include <torch/types.h>

#include "preprocess/dataset_file.h"
#include "trainer/models/seq2seq_model.h"

namespace synmt {

void dump_teacher_forced_analysis(Seq2SeqModel& model, const ParallelData& data, const std::vector<std::string>& names,
                                  int batch_size, const torch::Device& device, const std::string& path);

}  // namespace synmt
