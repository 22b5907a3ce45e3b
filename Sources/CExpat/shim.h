#pragma once
// expat 2.5 (Debian 12's libexpat1-dev): only forwarded; Feeds/ExpatParser.swift owns the parser.
#include <expat.h>
