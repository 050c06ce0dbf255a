#pragma once
#include "trainer/models/registry.h"

namespace synmt {
ModelFamily transformer_family();  // presets in family.cpp
}
