-- Tasks whose HTTP session ended: taken out. ARGV: P, then the ids.
for i = 2, #ARGV do
  drop(ARGV[i])
end
return 1
