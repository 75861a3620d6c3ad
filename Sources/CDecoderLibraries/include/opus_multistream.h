// libopusfile's header includes <opus_multistream.h>, which libopus installs under opus/ (its
// pkg-config file adds -I/usr/include/opus). The path is given here instead: pkg-config would
// also link libopusfile at start, which CDecoderLibraries loads only when an Opus file opens.
#include <opus/opus_multistream.h>
