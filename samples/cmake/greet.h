#ifndef GREET_H
#define GREET_H

/* Greets WHO, the Nth time; fires greet:hello in libgreet.so. */
void greet(int n, const char *who);

#endif
