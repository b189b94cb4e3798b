/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for dtrace-gen's front end: any bytes through the
 * lexer and parser, both as plain input and as cpp output (line markers
 * trusted), and every accepted model through the header writer. Built and
 * run briefly by tests/dtrace-gen/fuzz.sh with ASan and UBSan; run longer
 * by hand:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Idtrace-gen \
 *     -Ielfcore tests/dtrace-gen/fuzz-parser.c dtrace-gen/{lexer,parser,\
 *     header,diag,buf}.c elfcore/{names,typetext}.c -o fuzz && ./fuzz
 * tests/dtrace-gen/inputs
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace-gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy, so reads past the end are caught by ASan. */
	char *text = malloc(size ? size : 1);
	struct dg_diag diag = { NULL, "fuzz", 0, 0 };

	if (!text)
		return 0;
	memcpy(text, data, size);
	for (int cpp_done = 0; cpp_done < 2; cpp_done++) {
		struct dg_model m;
		struct dg_buf out = { 0 };

		if (dg_parse(&m, "fuzz.d", text, size, cpp_done, &diag) == 0) {
			dg_header_write(&m, &out);
			if (!out.failed &&
			    (!out.data || strlen(out.data) != out.len))
				abort(); /* the header must be one clean string
					  */
		}
		dg_buf_free(&out);
		dg_model_free(&m);
	}
	free(text);
	return 0;
}
