# easel completion for bash: source it, or put it in ~/.local/share/bash-completion/completions/easel
_easel() {
	local cur=${COMP_WORDS[COMP_CWORD]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "{{.Words}} --demo --profile --version --help" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -o filenames -F _easel easel
