// Public header of src/support: the pieces every stage shares (source positions, the one
// diagnostic format, Status, zero-copy byte views of mapped files).
#pragma once

#include "support/bytes.h"
#include "support/diagnostic.h"
#include "support/source.h"
#include "support/status.h"
