// Fires tests/e2e/widget.d's probe with a C++ object of known contents
// and writes what a tracer printing every field should see to argv[1].
#include <cstdio>
#include <cstring>

struct Base {
	int base_id;
};

class Widget : public Base
{
      public:
	static int count;
	char label[12];
	long weight;
	const char *owner;
	virtual ~Widget()
	{
	}
};

int Widget::count = 3;

#include "widget.h"

int main(int argc, char **argv)
{
	FILE *out = argc > 1 ? std::fopen(argv[1], "w") : stdout;
	Widget w;

	if (!out)
		return 1;
	w.base_id = 77;
	std::strcpy(w.label, "knob");
	w.weight = -9;
	w.owner = "zed";
	// BPF reads only pages already faulted in: touch the string.
	std::fprintf(out, "# %s\n", w.owner);
	CX_HIT(&w, Widget::count);
	std::fprintf(out,
		     "cx:hit w: base_id=77 label=knob weight=-9 owner=zed\n");
	return std::fclose(out) != 0;
}
