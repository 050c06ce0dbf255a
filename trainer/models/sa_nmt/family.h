#pragma once
#include "trainer/models/registry.h"

namespace synmt {
ModelFamily sa_nmt_family();  // presets in family.cpp
}
