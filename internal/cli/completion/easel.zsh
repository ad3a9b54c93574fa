#compdef easel
# easel completion for zsh: put it on $fpath as _easel
_easel() {
	if (( CURRENT == 2 )); then
		compadd -- {{.Words}} --demo --profile --version --help
	else
		_files
	fi
}
compdef _easel easel
