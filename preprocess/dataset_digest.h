#pragma once
// A fingerprint of what a binarised dataset holds (its sentences' token ids, source features and
// <unk> forms), independent of how the HDF5 file stores it: a training state records the digests
// of its training and validation data, so that a resume onto other data (a corpus rebuilt with
// other parses, say) is told apart from a resume of the same run.
#include <string>

#include "preprocess/dataset_file.h"

namespace synmt {

// SHA-256 over every array of the dataset in a fixed order, each prefixed by its name and length
// (so that moving a token from one array to the next changes it); the attributes (provenance
// strings: vocabulary hashes, paths) are not part of it.
std::string content_sha256(const ParallelData& data);

}  // namespace synmt
