#include "fake_client.h"
