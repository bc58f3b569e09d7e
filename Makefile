# wlslider: build, install and uninstall the way Unix tools do.
#
#   make                                  the stripped release binary and the shell completions
#   make install                          install them and the man page under PREFIX (/usr/local)
#   make install PREFIX=$HOME/.local      for one user, without root
#   make install DESTDIR=/tmp/stage       stage the tree (for a package); PREFIX stays its path
#   make uninstall                        remove exactly the files `make install` installs
#                                         (with the same PREFIX, DESTDIR and directories)
#
# Installed: BINDIR/wlslider (stripped; its debug info stays in .build/release/wlslider.debug),
# MANDIR/man1/wlslider.1, and a completion script for bash, zsh and fish where each shell looks.
# Every directory below is derived from PREFIX and can be set on its own.
#
# The build is scripts/build-release (the flags of scripts/lib/release-flags.sh, then objcopy); it
# installs missing Debian build packages first. The binary is rebuilt when a file under Sources/ or
# the package manifest is newer, so `make && sudo make install` builds as the user only.
# The man page is committed (docs/wlslider.1, from scripts/generate-manual), so installing needs no
# plugin run; scripts/test checks that it says what --help says.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
INSTALL ?= install

binary := .build/release/stripped/wlslider
completions := .build/release/completions
man_page := docs/wlslider.1
sources := Package.swift $(wildcard Package.resolved) $(shell find Sources -type f)

# A recipe that fails leaves no half-written target behind.
.DELETE_ON_ERROR:
.PHONY: all build install uninstall man

all: build

build: $(binary) $(completions)/wlslider.bash $(completions)/_wlslider $(completions)/wlslider.fish

$(binary): $(sources)
	scripts/build-release >/dev/null
	@touch $@

# argument-parser writes each shell's script from the command's own options.
$(completions)/wlslider.bash: $(binary)
	@mkdir -p $(@D)
	$(binary) --generate-completion-script bash >$@
$(completions)/_wlslider: $(binary)
	@mkdir -p $(@D)
	$(binary) --generate-completion-script zsh >$@
$(completions)/wlslider.fish: $(binary)
	@mkdir -p $(@D)
	$(binary) --generate-completion-script fish >$@

install: build
	$(INSTALL) -D -m 0755 $(binary) "$(DESTDIR)$(BINDIR)/wlslider"
	$(INSTALL) -D -m 0644 $(man_page) "$(DESTDIR)$(MANDIR)/man1/wlslider.1"
	$(INSTALL) -D -m 0644 $(completions)/wlslider.bash "$(DESTDIR)$(BASHCOMPDIR)/wlslider"
	$(INSTALL) -D -m 0644 $(completions)/_wlslider "$(DESTDIR)$(ZSHCOMPDIR)/_wlslider"
	$(INSTALL) -D -m 0644 $(completions)/wlslider.fish "$(DESTDIR)$(FISHCOMPDIR)/wlslider.fish"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/wlslider" \
	      "$(DESTDIR)$(MANDIR)/man1/wlslider.1" \
	      "$(DESTDIR)$(BASHCOMPDIR)/wlslider" \
	      "$(DESTDIR)$(ZSHCOMPDIR)/_wlslider" \
	      "$(DESTDIR)$(FISHCOMPDIR)/wlslider.fish"

# Rewrites docs/wlslider.1 after a change to the options or their help.
man:
	scripts/generate-manual
