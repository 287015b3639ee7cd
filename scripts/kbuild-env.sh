# kbuild-env.sh: sourced by the scripts that build kernel code
# (build-kernel.sh, compat.sh, patch-check.sh).  kbuild_env BASEDIR sets
# up ccache, shared by every tree (BASEDIR: the directory whose trees'
# paths ccache may treat as the same), and a reproducible kbuild stamp.
kbuild_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
	export CCACHE_BASEDIR=$1
	export CCACHE_NOHASHDIR=1
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
	export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
	export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
	export KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
}
