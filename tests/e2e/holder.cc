// C++20: an empty member under [[no_unique_address]] shares its byte with
// the next field (tests/e2e/struct-cases.sh).
#include "holder.h"
struct Empty {};
struct Holder {
	[[no_unique_address]] Empty e;
	int x;
	long y;
};
static Holder h = { {}, 42, -9 };
int main() { CX_HOLDER(&h); return 0; }
