/* SPDX-License-Identifier: MIT */
/* A program to symbolize, never run: its entry point is a known address in a file whose
 * stripped copy (.stripped) has no symbols left. */
int main(void) { return 0; }
