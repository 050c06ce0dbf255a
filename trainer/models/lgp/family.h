#pragma once
#include "trainer/models/registry.h"

namespace synmt {
ModelFamily lgp_family();  // presets in family.cpp
}
