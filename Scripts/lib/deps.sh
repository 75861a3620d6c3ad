# Debian packages playbackd needs, by purpose. Sourced by Scripts/install, Scripts/test,
# Scripts/bench and Scripts/order-functions; `ensure_packages LIST...` installs whatever of them is missing.
RUNTIME_PACKAGES="libasound2 libmpg123-0 libfaad2 libflac12 libvorbisfile3 libopusfile0 libavformat59 libavcodec59 libsystemd0 libsonic0 libpulse0 libsoxr0 libcurl4 ca-certificates libsqlite3-0 libpcre2-8-0 libebur128-1 libicu72"
BUILD_PACKAGES="pkg-config libstdc++-12-dev libasound2-dev libmpg123-dev libfaad-dev libflac-dev libvorbis-dev libopusfile-dev libavformat-dev libavcodec-dev libsystemd-dev libsonic-dev libpulse-dev libsoxr-dev libcurl4-openssl-dev libssl-dev libsqlite3-dev libpcre2-dev libebur128-dev libicu-dev"
TEST_PACKAGES="sqlite3 binutils lame sox faad espeak-ng mpg123 flac vorbis-tools opus-tools ffmpeg python3-mutagen alsa-utils pulseaudio pulseaudio-utils libasound2-plugins util-linux systemd systemd-container perl zsh fish groff-base python3 libjpeg-turbo-progs dbus-daemon playerctl i3blocks snapserver snapclient openssl mpc mpd python3-mpd ncmpcpp ncmpc tmux cantata xvfb xauth"
BENCH_PACKAGES="hyperfine mpd mpc cmus mpv procps bc python3 python3-numpy util-linux"
# Scripts/order-functions: what runs, under callgrind.
PROFILE_PACKAGES="valgrind binutils"

ensure_packages() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
}
