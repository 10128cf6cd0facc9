# install.cmake - what `cmake --install` puts where (GNUInstallDirs), the
# same for a hand install (prefix /usr/local) and for the Debian package
# (scripts/package: prefix /usr, units in /lib/systemd/system):
#
#   bin/fray                              the program
#   FRAY_SYSTEMD_UNITDIR/fray.service     the units, ExecStart= pointing at
#   FRAY_SYSTEMD_UNITDIR/fray@.service      the installed program
#   FRAY_CONFDIR/fray.conf                the service's config, written only
#                                           when there is none (never over a
#                                           GM's own)
#   share/fray/tactical-effects.conf      the rulesets' data, where the
#                                           installed fray.conf's [rules] dir
#                                           points
#   share/man/man1/fray.1, man5/fray.conf.5
#   share/doc/fray/                       README, the guides, the examples
set(FRAY_SYSTEMD_UNITDIR "lib/systemd/system" CACHE PATH
    "where the systemd units go (relative: under the prefix)")
set(FRAY_DATADIR "${CMAKE_INSTALL_FULL_DATADIR}/fray")
# StateDirectory=fray of the unit, whatever the prefix
set(FRAY_STATEDIR "/var/lib/fray")

install(TARGETS fray RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The units name the installed program (the source tree's say
# /usr/local/bin/fray, what a default `cmake --install` makes).
foreach(unit fray.service fray@.service)
  file(READ ${CMAKE_SOURCE_DIR}/systemd/${unit} text)
  string(REPLACE "/usr/local/bin/fray" "${CMAKE_INSTALL_FULL_BINDIR}/fray"
         text "${text}")
  string(REPLACE "/etc/fray" "${FRAY_CONFDIR}" text "${text}")
  file(WRITE ${CMAKE_BINARY_DIR}/systemd/${unit} "${text}")
  install(FILES ${CMAKE_BINARY_DIR}/systemd/${unit}
          DESTINATION ${FRAY_SYSTEMD_UNITDIR})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_SOURCE_DIR}/systemd/fray.service
             ${CMAKE_SOURCE_DIR}/systemd/fray@.service)

# The service's config: where the data and the database are.
configure_file(${CMAKE_SOURCE_DIR}/config/fray.conf.in
               ${CMAKE_BINARY_DIR}/fray.conf @ONLY)
install(CODE "
  set(conf \"\$ENV{DESTDIR}${FRAY_CONFDIR}/fray.conf\")
  if(EXISTS \"\${conf}\")
    message(STATUS \"Kept: \${conf} (yours)\")
  else()
    file(INSTALL ${CMAKE_BINARY_DIR}/fray.conf
         DESTINATION \"${FRAY_CONFDIR}\"
         PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  endif()")

install(FILES config/tactical-effects.conf DESTINATION ${CMAKE_INSTALL_DATADIR}/fray)
install(FILES docs/man/fray.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES docs/man/fray.conf.5 DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)
# Every page the installed pages link to (tests/package/test_install.sh
# checks the links).
install(FILES README.md docs/commands.md docs/dice.md docs/console.md
              docs/discord-setup.md docs/sharding.md docs/players.md
              docs/players.de.md docs/players.fr.md docs/players.es-ES.md
              docs/players.pt-BR.md docs/players.pl.md
              docs/export-format.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/rulesets docs/commands DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md")
install(FILES config/fray.conf.example config/tactical-effects.conf
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
