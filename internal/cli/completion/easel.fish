# easel completion for fish: put it in ~/.config/fish/completions/easel.fish
{{range .Commands}}complete -c easel -n __fish_use_subcommand -a {{.Name}} -d {{.Line}}
{{end}}
