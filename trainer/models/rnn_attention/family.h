#pragma once
#include "trainer/models/registry.h"

namespace synmt {
ModelFamily rnn_attention_family();  // presets in family.cpp
}
