# Speech for the phrase tests, sourced by Scripts/make-fixtures in the fixtures directory:
# sentences spoken by espeak-ng, each cut to its sound (sox `silence` at -60 dBFS), joined
# with known pauses of 0.4 - 1.5 s. speech.truth holds each sentence's true start and end
# (seconds, from the sample counts). Three versions: loud (peaks at -2 dBFS), quiet (24 dB
# lower) and loud with white noise at -50 dBFS throughout.
sentences=(
  "The weather is lovely this morning."
  "Thank you."
  "Could you tell me the way to the station?"
  "I would like a cup of coffee please."
  "See you tomorrow."
)
pauses=(0.4 1.5 0.7 1.0)
lead=0.6
tail=0.8
parts=()
truth=()
position=$(python3 -c "print(round($lead * 44100))")
sox -R -n -r 44100 -c 2 -b 16 speech-lead.wav trim 0 "$lead"
parts+=(speech-lead.wav)
for index in "${!sentences[@]}"; do
  espeak-ng -w speech-raw.wav "${sentences[$index]}"
  sox -R speech-raw.wav -r 44100 -c 2 -b 16 "speech-$index.wav" \
    silence 1 0.001 -60d reverse silence 1 0.001 -60d reverse
  frames=$(soxi -s "speech-$index.wav")
  truth+=("$position $((position + frames))")
  position=$((position + frames))
  parts+=("speech-$index.wav")
  if [ "$index" -lt "${#pauses[@]}" ]; then
    sox -R -n -r 44100 -c 2 -b 16 "speech-pause-$index.wav" trim 0 "${pauses[$index]}"
    parts+=("speech-pause-$index.wav")
    position=$((position + $(soxi -s "speech-pause-$index.wav")))
  fi
done
sox -R -n -r 44100 -c 2 -b 16 speech-tail.wav trim 0 "$tail"
parts+=(speech-tail.wav)
sox -R "${parts[@]}" speech.wav
for line in "${truth[@]}"; do
  set -- $line
  python3 -c "print(f'{$1 / 44100:.6f} {$2 / 44100:.6f}')"
done >speech.truth
flac --silent -f -o speech-loud.flac speech.wav
sox -R speech.wav speech-quiet.wav vol -24dB
flac --silent -f -o speech-quiet.flac speech-quiet.wav
sox -R -n -r 44100 -c 2 -b 16 speech-noise.wav synth "$(soxi -D speech.wav)" whitenoise vol -50dB
sox -R -m speech.wav speech-noise.wav speech-noisy.wav
flac --silent -f -o speech-noisy.flac speech-noisy.wav
flac --silent -d -f --force-raw-format --endian=little --sign=signed -o speech-loud.ref.raw speech-loud.flac
# Not speech: 3 s of digital silence, and 45 s of pink noise with no pause at all.
sox -R -D -n -r 44100 -c 2 -b 16 phrase-silent.flac trim 0 3
sox -R -n -r 44100 -c 2 -b 16 phrase-noise.flac synth 45 pinknoise vol -12dB
rm -f speech*.wav
