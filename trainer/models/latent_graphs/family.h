#pragma once
#include "trainer/models/registry.h"

namespace synmt {
ModelFamily latent_graphs_family();  // presets in family.cpp
}
