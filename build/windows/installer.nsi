; Easel's Windows installer, made on Linux with Debian's NSIS by
; `make windows` (which defines VERSION, SRC and OUT).
;
; Per user, without asking for an administrator: Easel goes to
; %LOCALAPPDATA%\Programs\Easel, with a Start menu entry, "Open with
; Easel" for PNG, JPEG and WebP files, its folder on the user's PATH (so
; `easel gen …` works in cmd.exe and PowerShell, through easel.com), and
; an uninstaller listed in Settings > Apps. Uninstalling removes exactly
; these and keeps the user's work: the gallery (%LOCALAPPDATA%\Easel) and
; the profiles (%APPDATA%\Easel).

Unicode true
; A 64-bit installer: Easel is 64-bit only, and so Wine runs it without
; its 32-bit half in the tests.
Target amd64-unicode
!include "MUI2.nsh"
!include "StrFunc.nsh"
${StrStr}
${UnStrRep}

Name "Easel"
OutFile "${OUT}"
; Signed when the build is given a certificate (build/windows/sign does
; nothing without one): the uninstaller as NSIS writes it, the installer
; last. A failed signature fails the build rather than ship unsigned.
!ifdef SIGN
!finalize '"${SIGN}" "%1"' = 0
!uninstfinalize '"${SIGN}" "%1"' = 0
!endif
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\Easel"
; make sign-check packs with zlib (COMPRESSOR): it checks the signatures,
; and LZMA is 20 s of its time.
!ifdef COMPRESSOR
SetCompressor ${COMPRESSOR}
!else
SetCompressor /SOLID lzma
!endif
VIProductVersion "${VERSION}.0"
VIAddVersionKey /LANG=1033 "ProductName" "Easel"
VIAddVersionKey /LANG=1033 "FileDescription" "Easel installer"
VIAddVersionKey /LANG=1033 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=1033 "LegalCopyright" "the Easel authors"

!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Easel"
!define PROGID "Easel.Image"
!define MUI_FINISHPAGE_RUN "$INSTDIR\Easel.exe"

!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "SimpChinese"

; OpenWith registers Easel as a program that opens files of extension ext.
!macro OpenWith ext
	WriteRegStr HKCU "Software\Classes\Applications\Easel.exe\SupportedTypes" "${ext}" ""
	WriteRegStr HKCU "Software\Classes\${ext}\OpenWithProgids" "${PROGID}" ""
!macroend
!macro NoOpenWith ext
	DeleteRegValue HKCU "Software\Classes\${ext}\OpenWithProgids" "${PROGID}"
!macroend

Section "Easel"
	SetOutPath "$INSTDIR"
	File "${SRC}\Easel.exe"
	File "${SRC}\easel.com"
	WriteUninstaller "$INSTDIR\Uninstall.exe"
	CreateShortcut "$SMPROGRAMS\Easel.lnk" "$INSTDIR\Easel.exe"

	WriteRegStr HKCU "Software\Classes\Applications\Easel.exe" "FriendlyAppName" "Easel"
	WriteRegStr HKCU "Software\Classes\Applications\Easel.exe\shell\open\command" "" '"$INSTDIR\Easel.exe" "%1"'
	WriteRegStr HKCU "Software\Classes\${PROGID}" "" "Image"
	WriteRegStr HKCU "Software\Classes\${PROGID}\DefaultIcon" "" "$INSTDIR\Easel.exe,0"
	WriteRegStr HKCU "Software\Classes\${PROGID}\shell\open" "FriendlyAppName" "Easel"
	WriteRegStr HKCU "Software\Classes\${PROGID}\shell\open\command" "" '"$INSTDIR\Easel.exe" "%1"'
	!insertmacro OpenWith ".png"
	!insertmacro OpenWith ".jpg"
	!insertmacro OpenWith ".jpeg"
	!insertmacro OpenWith ".webp"

	; The folder on the user's PATH, once.
	ReadRegStr $0 HKCU "Environment" "Path"
	${StrStr} $1 "$0" "$INSTDIR"
	${If} $1 == ""
		${If} $0 == ""
			WriteRegExpandStr HKCU "Environment" "Path" "$INSTDIR"
		${Else}
			WriteRegExpandStr HKCU "Environment" "Path" "$0;$INSTDIR"
		${EndIf}
	${EndIf}

	WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "Easel"
	WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
	WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\Easel.exe,0"
	WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "the Easel authors"
	WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
	WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\Uninstall.exe"'
	WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\Uninstall.exe" /S'
	WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
	WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1

	; Tell Explorer the associations and the environment changed.
	System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
	SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=500
SectionEnd

Section "Uninstall"
	Delete "$INSTDIR\Easel.exe"
	Delete "$INSTDIR\easel.com"
	Delete "$INSTDIR\Uninstall.exe"
	RMDir "$INSTDIR"
	Delete "$SMPROGRAMS\Easel.lnk"

	DeleteRegKey HKCU "Software\Classes\Applications\Easel.exe"
	DeleteRegKey HKCU "Software\Classes\${PROGID}"
	!insertmacro NoOpenWith ".png"
	!insertmacro NoOpenWith ".jpg"
	!insertmacro NoOpenWith ".jpeg"
	!insertmacro NoOpenWith ".webp"

	ReadRegStr $0 HKCU "Environment" "Path"
	${UnStrRep} $0 "$0" ";$INSTDIR" ""
	${UnStrRep} $0 "$0" "$INSTDIR" ""
	WriteRegExpandStr HKCU "Environment" "Path" "$0"

	DeleteRegKey HKCU "${UNINSTALL_KEY}"
	System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
	SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=500
SectionEnd
